package service

import "golang.org/x/sys/unix"

// virtualFileSystems are the kernel's file systems that hold no documents,
// by their magic number: a folder on one (a bind mount of /proc, a cgroup
// tree) is refused wherever it is mounted.
var virtualFileSystems = map[int64]string{
	unix.PROC_SUPER_MAGIC:    "proc",
	unix.SYSFS_MAGIC:         "sysfs",
	unix.DEVPTS_SUPER_MAGIC:  "devpts",
	unix.CGROUP_SUPER_MAGIC:  "cgroup",
	unix.CGROUP2_SUPER_MAGIC: "cgroup2",
	unix.DEBUGFS_MAGIC:       "debugfs",
	unix.TRACEFS_MAGIC:       "tracefs",
	unix.SECURITYFS_MAGIC:    "securityfs",
	unix.BPF_FS_MAGIC:        "bpf",
	unix.PSTOREFS_MAGIC:      "pstore",
	unix.EFIVARFS_MAGIC:      "efivarfs",
	unix.BINFMTFS_MAGIC:      "binfmt_misc",
	unix.HUGETLBFS_MAGIC:     "hugetlbfs",
}

// virtualFS names the virtual file system path is on, or "".
func virtualFS(path string) string {
	var st unix.Statfs_t
	if unix.Statfs(path, &st) != nil {
		return ""
	}
	return virtualFileSystems[int64(st.Type)]
}
