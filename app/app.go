// Package app is the desktop shell: the methods the Wails window binds to,
// the tray, and native dialogs. Every method calls backend/service and
// nothing else.
package app
