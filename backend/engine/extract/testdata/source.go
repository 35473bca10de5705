package main

// Plain source with a wallabywaffle comment.
func main() {}
