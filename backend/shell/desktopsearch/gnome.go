package desktopsearch

import (
	"context"

	"github.com/godbus/dbus/v5"
)

// gnome is GNOME Shell's search provider, org.gnome.Shell.SearchProvider2:
// the shell calls it as the person types in the Activities overview, and
// shows the names, folders and icons it returns beside the apps'.
type gnome struct{ p *Providers }

const gnomeIface = "org.gnome.Shell.SearchProvider2"

// GetInitialResultSet searches terms afresh.
func (g gnome) GetInitialResultSet(terms []string) ([]string, *dbus.Error) {
	return g.ids(terms)
}

// GetSubsearchResultSet refines an earlier search as the person types on.
// Trove searches again: a word that grew can match files the earlier
// results did not hold (a name's prefix), and the search costs about what
// re-ranking the earlier ones would.
func (g gnome) GetSubsearchResultSet(_ []string, terms []string) ([]string, *dbus.Error) {
	return g.ids(terms)
}

func (g gnome) ids(terms []string) (ids []string, derr *dbus.Error) {
	defer g.p.recover("GetInitialResultSet", &derr)
	hits, err := g.p.finder.Find(context.Background(), Query(terms))
	if err != nil {
		return nil, g.p.failed("search", err)
	}
	ids = make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return ids, nil
}

// GetResultMetas describes the ids the shell will show: name, folder and
// icon. An id whose file left the index meanwhile is left out.
func (g gnome) GetResultMetas(ids []string) (metas []map[string]dbus.Variant, derr *dbus.Error) {
	defer g.p.recover("GetResultMetas", &derr)
	metas = make([]map[string]dbus.Variant, 0, len(ids))
	for _, id := range ids {
		h, err := g.p.finder.Lookup(context.Background(), id)
		if err != nil {
			continue
		}
		metas = append(metas, map[string]dbus.Variant{
			"id":            dbus.MakeVariant(h.ID),
			"name":          dbus.MakeVariant(h.Name),
			"description":   dbus.MakeVariant(h.Folder),
			"gicon":         dbus.MakeVariant(GIcon(h.Icons)),
			"clipboardText": dbus.MakeVariant(h.Path),
		})
	}
	return metas, nil
}

// ActivateResult opens the file with its default application, through
// the service, which first checks that the path still holds the file that
// was indexed.
func (g gnome) ActivateResult(id string, _ []string, _ uint32) (derr *dbus.Error) {
	defer g.p.recover("ActivateResult", &derr)
	return g.p.open(id, false)
}

// LaunchSearch is the provider's "more results": Trove's window on the
// same query.
func (g gnome) LaunchSearch(terms []string, _ uint32) (derr *dbus.Error) {
	defer g.p.recover("LaunchSearch", &derr)
	if err := g.p.showSearch(Query(terms)); err != nil {
		return g.p.failed("show the search", err)
	}
	return nil
}

const gnomeIntrospection = `
	<interface name="org.gnome.Shell.SearchProvider2">
		<method name="GetInitialResultSet">
			<arg type="as" name="terms" direction="in"/>
			<arg type="as" name="results" direction="out"/>
		</method>
		<method name="GetSubsearchResultSet">
			<arg type="as" name="previous_results" direction="in"/>
			<arg type="as" name="terms" direction="in"/>
			<arg type="as" name="results" direction="out"/>
		</method>
		<method name="GetResultMetas">
			<arg type="as" name="identifiers" direction="in"/>
			<arg type="aa{sv}" name="metas" direction="out"/>
		</method>
		<method name="ActivateResult">
			<arg type="s" name="identifier" direction="in"/>
			<arg type="as" name="terms" direction="in"/>
			<arg type="u" name="timestamp" direction="in"/>
		</method>
		<method name="LaunchSearch">
			<arg type="as" name="terms" direction="in"/>
			<arg type="u" name="timestamp" direction="in"/>
		</method>
	</interface>`
