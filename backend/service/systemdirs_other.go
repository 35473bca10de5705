//go:build !linux

package service

// virtualFS knows no virtual file systems outside Linux.
func virtualFS(string) string { return "" }
