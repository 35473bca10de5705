// Package smoke holds the desktop app's smoke test (build tag desktopsmoke;
// run by `make desktop-test`): the real desktop binary under Xvfb with a
// private D-Bus session bus, checked from outside as a person's desktop
// would see it: a window on the display, the API on its port, and the tray
// item with its menu on the bus.
package smoke
