// Package mounts tells what file system holds a folder and whether it is
// there: the kind of file system (its changes made elsewhere are or are
// not reported by the kernel), and the mount a folder lives on, so that
// a drive unplugged or a share gone is told from a folder deleted.
package mounts

import (
	"path/filepath"
	"strings"

	"github.com/moby/sys/mountinfo"
)

// Kind is what a file system is, as far as watching it goes.
type Kind int

// Kinds.
const (
	Local   Kind = iota // a disk of this machine: inotify sees every change
	Network             // NFS, SMB/CIFS, 9p, Ceph, AFS...: changes made by other machines go unseen
	FUSE                // a FUSE mount (sshfs, rclone, ...): changes made by its server go unseen
	Unknown             // not told (another OS, or statfs failed)
)

// FS is the file system holding a folder.
type FS struct {
	Type       string // "ext4", "nfs", "cifs", "fuse.sshfs", ...; "" when not known
	Kind       Kind
	MountPoint string // where it is mounted; "" when not known
	// StableInodes: a file keeps its inode number across remounts, so an
	// inode that differs means another file. Not so on FAT file systems
	// (numbers made up at mount) nor, in general, on FUSE.
	StableInodes bool
}

// EventsReliable tells whether the kernel reports every change below the
// folder: not on network shares nor FUSE mounts, whose changes made
// elsewhere (another machine, the server) never reach inotify.
func (f FS) EventsReliable() bool { return f.Kind == Local }

// Of tells what file system holds path (which need not exist: the
// mount is found from the path's words, without touching the disk, and
// only the type needs the folder). Nothing here waits on a dead share
// except statfs, which the caller bounds.
func Of(path string) FS {
	out := FS{Kind: Unknown, MountPoint: MountOf(path)}
	if m := mountAt(out.MountPoint); m != nil {
		out.Type = m.FSType
		out.Kind = kindOfName(m.FSType)
	}
	if t, kind, ok := statType(path); ok {
		if out.Type == "" || kind != Unknown && kind != out.Kind {
			out.Type, out.Kind = t, kind
		}
	}
	out.StableInodes = stableInodes(out)
	return out
}

// MountOf is the mount point of the file system path lives on, from the
// mount table (the longest mount point that holds path); "" when the
// table cannot be read.
func MountOf(path string) string {
	path = filepath.Clean(path)
	mounts, err := mountinfo.GetMounts(mountinfo.ParentsFilter(path))
	if err != nil || len(mounts) == 0 {
		return ""
	}
	best := ""
	for _, m := range mounts {
		if len(m.Mountpoint) > len(best) {
			best = m.Mountpoint
		}
	}
	return best
}

// Mounted tells whether something is mounted at mountPoint now, from the
// mount table alone (a dead share is never touched). The root is always
// mounted; "" (not known) counts as mounted.
func Mounted(mountPoint string) bool {
	if mountPoint == "" || mountPoint == "/" {
		return true
	}
	return mountAt(mountPoint) != nil
}

// mountAt is the last mount at exactly mountPoint (the one on top), or nil.
func mountAt(mountPoint string) *mountinfo.Info {
	if mountPoint == "" {
		return nil
	}
	mounts, err := mountinfo.GetMounts(mountinfo.SingleEntryFilter(mountPoint))
	if err != nil || len(mounts) == 0 {
		return nil
	}
	return mounts[len(mounts)-1]
}

// networkTypes are file systems whose changes come from other machines.
var networkTypes = map[string]bool{
	"nfs": true, "nfs4": true, "cifs": true, "smb3": true, "smbfs": true, "9p": true, "ceph": true,
	"afs": true, "coda": true, "glusterfs": true, "lustre": true, "gfs2": true, "ocfs2": true,
	"davfs": true, "ncpfs": true, "beegfs": true, "orangefs": true,
}

func kindOfName(t string) Kind {
	switch {
	case t == "":
		return Unknown
	case t == "fuse" || t == "fuseblk" || strings.HasPrefix(t, "fuse."):
		// fuseblk (ntfs-3g, exfat-fuse) is a local disk through FUSE: its
		// own writes go through the kernel, but so do nobody else's.
		if t == "fuseblk" {
			return Local
		}
		return FUSE
	case networkTypes[t]:
		return Network
	}
	return Local
}

// madeUpInodes are local file systems whose inode numbers are made up at
// mount time.
var madeUpInodes = map[string]bool{"vfat": true, "msdos": true, "exfat": true, "fat": true, "fuseblk": true}

func stableInodes(f FS) bool {
	switch f.Kind {
	case Local:
		return !madeUpInodes[f.Type]
	case Network:
		return true // NFS file ids, SMB server inode numbers
	}
	return false
}
