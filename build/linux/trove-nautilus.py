# Trove's "Search in this folder with Trove" for GNOME Files (Nautilus),
# through nautilus-python (Debian: python3-nautilus). It opens Trove's
# quick search limited to the folder: `trove-desktop quick --folder DIR`,
# which starts Trove if it is not running.
import subprocess

from gi.repository import GObject, Nautilus


def _folder(info):
    """The local path of a folder, or None."""
    if info is None or not info.is_directory():
        return None
    location = info.get_location()
    return location.get_path() if location is not None else None


def _item(name, folder):
    item = Nautilus.MenuItem(
        name=name,
        label="Search in this folder with Trove",
        tip="Open Trove's quick search, limited to this folder",
        icon="dev.trove.Trove",
    )
    item.connect("activate", lambda *_: subprocess.Popen(["trove-desktop", "quick", "--folder", folder]))
    return item


class TroveSearchInFolder(GObject.GObject, Nautilus.MenuProvider):
    # Nautilus 43 and later pass (files) and (folder); older ones pass the
    # window first: the last argument is the one needed.
    def get_file_items(self, *args):
        files = args[-1]
        if len(files) != 1:
            return []
        folder = _folder(files[0])
        return [_item("Trove::SearchInFolder", folder)] if folder else []

    def get_background_items(self, *args):
        folder = _folder(args[-1])
        return [_item("Trove::SearchHere", folder)] if folder else []
