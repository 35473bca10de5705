package mounts

import "golang.org/x/sys/unix"

// types names file systems by statfs's magic number where the mount table
// is not there to say.
var types = map[int64]struct {
	name string
	kind Kind
}{
	unix.NFS_SUPER_MAGIC:       {"nfs", Network},
	unix.SMB_SUPER_MAGIC:       {"smbfs", Network},
	unix.SMB2_SUPER_MAGIC:      {"smb3", Network},
	unix.CIFS_SUPER_MAGIC:      {"cifs", Network},
	unix.V9FS_MAGIC:            {"9p", Network},
	unix.CEPH_SUPER_MAGIC:      {"ceph", Network},
	unix.AFS_FS_MAGIC:          {"afs", Network},
	unix.AFS_SUPER_MAGIC:       {"afs", Network},
	unix.CODA_SUPER_MAGIC:      {"coda", Network},
	unix.FUSE_SUPER_MAGIC:      {"fuse", FUSE},
	unix.EXT4_SUPER_MAGIC:      {"ext4", Local},
	unix.BTRFS_SUPER_MAGIC:     {"btrfs", Local},
	unix.XFS_SUPER_MAGIC:       {"xfs", Local},
	unix.TMPFS_MAGIC:           {"tmpfs", Local},
	unix.MSDOS_SUPER_MAGIC:     {"vfat", Local},
	unix.EXFAT_SUPER_MAGIC:     {"exfat", Local},
	unix.OVERLAYFS_SUPER_MAGIC: {"overlay", Local},
	unix.F2FS_SUPER_MAGIC:      {"f2fs", Local},
}

// statType reads the file system type of path with statfs.
func statType(path string) (string, Kind, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return "", Unknown, false
	}
	if t, ok := types[int64(st.Type)]; ok {
		return t.name, t.kind, true
	}
	return "", Unknown, false
}
