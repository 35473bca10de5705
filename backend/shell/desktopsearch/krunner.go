package desktopsearch

import (
	"context"

	"github.com/godbus/dbus/v5"
)

// krunner is KDE's runner interface, org.kde.krunner1: KRunner and the
// Plasma launcher call Match as the person types and Run on the chosen
// match, with one of the actions (or "" for the default: open).
type krunner struct{ p *Providers }

const krunnerIface = "org.kde.krunner1"

// The actions of a match.
const (
	actionOpen   = "open"
	actionReveal = "reveal"
	actionCopy   = "copy"
)

// KRunner's match types (Plasma 5's QueryMatch::Type, Plasma 6's
// categoryRelevance: the same numbers).
const (
	possibleMatch = 30
	exactMatch    = 100
)

// remoteAction is one entry of Actions: id, text, icon name.
type remoteAction struct{ ID, Text, Icon string }

// remoteMatch is one entry of Match: id, text, icon name, type,
// relevance and properties.
type remoteMatch struct {
	ID        string
	Text      string
	Icon      string
	Type      int32
	Relevance float64
	Props     map[string]dbus.Variant
}

// Actions are the buttons KRunner offers beside each match.
func (k krunner) Actions() ([]remoteAction, *dbus.Error) {
	return []remoteAction{
		{actionOpen, "Open", "document-open"},
		{actionReveal, "Show in folder", "document-open-folder"},
		{actionCopy, "Copy path", "edit-copy"},
	}, nil
}

// Match searches query. Copying is offered only while there is a
// clipboard to copy to (see copyText).
func (k krunner) Match(query string) (matches []remoteMatch, derr *dbus.Error) {
	defer k.p.recover("Match", &derr)
	hits, err := k.p.finder.Find(context.Background(), query)
	if err != nil {
		return nil, k.p.failed("search", err)
	}
	actions := []string{actionOpen, actionReveal}
	if k.p.canCopy() {
		actions = append(actions, actionCopy)
	}
	matches = make([]remoteMatch, 0, len(hits))
	for _, h := range hits {
		typ := int32(possibleMatch)
		if h.Exact {
			typ = exactMatch
		}
		matches = append(matches, remoteMatch{
			ID: h.ID, Text: h.Name, Icon: k.p.themedIcon(h.Icons), Type: typ, Relevance: h.Relevance,
			Props: map[string]dbus.Variant{
				"subtext":  dbus.MakeVariant(h.Folder),
				"urls":     dbus.MakeVariant([]string{fileURL(h.Path)}),
				"category": dbus.MakeVariant("Trove"),
				"actions":  dbus.MakeVariant(actions),
			},
		})
	}
	return matches, nil
}

// Run carries out an action on a match.
func (k krunner) Run(id, action string) (derr *dbus.Error) {
	defer k.p.recover("Run", &derr)
	switch action {
	case "", actionOpen:
		return k.p.open(id, false)
	case actionReveal:
		return k.p.open(id, true)
	case actionCopy:
		return k.p.copyPath(id)
	}
	return dbus.MakeFailedError(errUnknownAction(action))
}

// Teardown ends a match session; Trove keeps nothing per session.
func (k krunner) Teardown() *dbus.Error { return nil }

const krunnerIntrospection = `
	<interface name="org.kde.krunner1">
		<method name="Actions">
			<arg name="matches" type="a(sss)" direction="out"/>
		</method>
		<method name="Run">
			<arg name="matchId" type="s" direction="in"/>
			<arg name="actionId" type="s" direction="in"/>
		</method>
		<method name="Match">
			<arg name="query" type="s" direction="in"/>
			<arg name="matches" type="a(sssida{sv})" direction="out"/>
		</method>
		<method name="Teardown"/>
	</interface>`
