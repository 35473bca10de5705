package store

import "testing"

// Places are kept between searches, and a move or a deletion is seen by
// the next search.
func TestPlacesFollowTheIndex(t *testing.T) {
	s, ids := matchCorpus(t)
	want := func(when string, id int64, path string) {
		t.Helper()
		got, err := s.Places(ctx, ids[:3])
		if err != nil {
			t.Fatal(err)
		}
		pl, ok := got[id]
		if ok != (path != "") || pl.Path != path {
			t.Errorf("%s: file %d placed %+v (%v), want %q", when, id, pl, ok, path)
		}
	}
	want("at first", ids[1], "/m/log-01.txt")
	want("read again", ids[1], "/m/log-01.txt")
	if n, err := s.MoveFiles(ctx, []Move{{ID: ids[1], DirID: 1, Path: "/m/sub/moved.txt", Filename: "moved.txt",
		Extension: ".txt"}}); err != nil || n != 1 {
		t.Fatalf("moved %d: %v", n, err)
	}
	want("after a move", ids[1], "/m/sub/moved.txt")
	if got, _ := s.Places(ctx, ids[1:2]); got[ids[1]].Folders != "sub" || got[ids[1]].Filename != "moved.txt" {
		t.Errorf("after a move: %+v", got[ids[1]])
	}
	if _, err := s.DeleteFileByPath(ctx, "/m/log-02.txt"); err != nil {
		t.Fatal(err)
	}
	want("after a deletion", ids[2], "")
}

// Keys of files read without a filter are kept with their places, and a
// touched file's new size and time are seen by the next search.
func TestKeysFollowATouch(t *testing.T) {
	s, ids := matchCorpus(t)
	keys, err := s.KeysOf(ctx, ids[4:6], FileFilter{})
	if err != nil || len(keys) != 2 || keys[ids[4]].Path != "/m/log-04.txt" {
		t.Fatalf("keys %+v, %v", keys, err)
	}
	f := doc(1, "/m/log-04.txt").File
	f.Size = 99
	if err := s.Touch(ctx, ids[4], f); err != nil {
		t.Fatal(err)
	}
	keys, err = s.KeysOf(ctx, ids[4:6], FileFilter{})
	if err != nil || keys[ids[4]].Size != 99 || keys[ids[4]].Modified != f.Modified.UnixNano() {
		t.Fatalf("after a touch: %+v, %v", keys[ids[4]], err)
	}
	filtered, err := s.KeysOf(ctx, ids[4:6], FileFilter{MinSize: 50})
	if err != nil || len(filtered) != 1 || filtered[ids[4]].Size != 99 {
		t.Fatalf("size at least 50: %+v, %v", filtered, err)
	}
}
