//go:build !linux

package mounts

// statType is not told on this system: the mount table alone says.
func statType(string) (string, Kind, bool) { return "", Unknown, false }
