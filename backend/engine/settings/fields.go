package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"trove/backend/core"
)

// field is one addressable setting: its dotted path and where it lives in
// core.Settings. The table is derived from the struct's JSON tags, so a new
// setting needs only a struct field, a default and a validation rule.
type field struct {
	path  string
	index []int
	typ   reflect.Type
}

var fieldTable = sync.OnceValue(func() map[string]field {
	fields := map[string]field{}
	st := reflect.TypeFor[core.Settings]()
	for i := range st.NumField() {
		sec := st.Field(i)
		secName := jsonName(sec)
		for j := range sec.Type.NumField() {
			f := sec.Type.Field(j)
			p := secName + "." + jsonName(f)
			fields[p] = field{path: p, index: []int{i, j}, typ: f.Type}
		}
	}
	return fields
})

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// Sections lists the section names in the order of core.Settings.
func Sections() []string {
	st := reflect.TypeFor[core.Settings]()
	out := make([]string, st.NumField())
	for i := range out {
		out[i] = jsonName(st.Field(i))
	}
	return out
}

// Keys lists every dotted settings path, sorted.
func Keys() []string {
	keys := make([]string, 0, len(fieldTable()))
	for k := range fieldTable() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// flatten turns a patch into dotted keys. A key may already be dotted
// ("queue.max_retries") or name a whole section whose value is an object of
// that section's keys ({"queue": {"max_retries": 2}}).
func flatten(patch map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(patch))
	sections := map[string]bool{}
	for _, s := range Sections() {
		sections[s] = true
	}
	for key, raw := range patch {
		if strings.Contains(key, ".") {
			if _, ok := fieldTable()[key]; !ok {
				return nil, unknownKey(key, sections)
			}
			out[key] = raw
			continue
		}
		if !sections[key] {
			return nil, core.FailField(core.UnknownSetting, key,
				"unknown settings section (known: %s)", strings.Join(Sections(), ", "))
		}
		var inner map[string]json.RawMessage
		if jsonKind(raw) != "object" || json.Unmarshal(raw, &inner) != nil {
			return nil, core.FailField(core.BadType, key, "a section must be an object of its keys, got %s", jsonKind(raw))
		}
		for k, v := range inner {
			full := key + "." + k
			if _, ok := fieldTable()[full]; !ok {
				return nil, unknownKey(full, sections)
			}
			out[full] = v
		}
	}
	return out, nil
}

func unknownKey(key string, sections map[string]bool) error {
	sec, _, _ := strings.Cut(key, ".")
	if !sections[sec] {
		return core.FailField(core.UnknownSetting, key,
			"unknown settings section %q (known: %s)", sec, strings.Join(Sections(), ", "))
	}
	var known []string
	for _, k := range Keys() {
		if strings.HasPrefix(k, sec+".") {
			known = append(known, strings.TrimPrefix(k, sec+"."))
		}
	}
	return core.FailField(core.UnknownSetting, key, "unknown setting (known in %s: %s)", sec, strings.Join(known, ", "))
}

// set decodes raw strictly into the field's type and stores it in s.
// Strict means no coercion: "3" is not a number and 1.5 is not an integer.
func (f field) set(s *core.Settings, raw json.RawMessage) error {
	dst := reflect.ValueOf(s).Elem().FieldByIndex(f.index)
	got := jsonKind(raw)
	switch f.typ.Kind() {
	case reflect.String:
		var v string
		if got != "string" || json.Unmarshal(raw, &v) != nil {
			return typeError(f.path, "a string", got)
		}
		dst.SetString(v)
	case reflect.Bool:
		var v bool
		if got != "boolean" || json.Unmarshal(raw, &v) != nil {
			return typeError(f.path, "true or false", got)
		}
		dst.SetBool(v)
	case reflect.Int:
		if got != "number" {
			return typeError(f.path, "a whole number", got)
		}
		v, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
		if err != nil {
			return numberError(f.path, numberWanted(reflect.Int), raw)
		}
		dst.SetInt(v)
	case reflect.Float64:
		if got != "number" {
			return typeError(f.path, "a number", got)
		}
		var v float64
		if json.Unmarshal(raw, &v) != nil {
			return numberError(f.path, numberWanted(reflect.Float64), raw)
		}
		dst.SetFloat(v)
	case reflect.Slice:
		if got != "array" {
			return typeError(f.path, "a list", got)
		}
		v, err := decodeList(f.path, f.typ, raw)
		if err != nil {
			return err
		}
		dst.Set(v)
	default:
		panic("settings: unsupported field type " + f.typ.String())
	}
	return nil
}

func typeError(path, want, got string) error {
	return core.FailField(core.BadType, path, "expected %s, got %s", want, got)
}

// numberError is a number the setting cannot hold: one too large for its
// type (JSON has no infinities, so 1e999 is how one arrives), or a
// fraction where a whole number belongs. The type is right, the value is
// not: INVALID_NUMBER, as in every other JSON body.
func numberError(path, want string, raw json.RawMessage) error {
	return core.FailField(core.BadNumber, path, "must be %s, got %s", want, bytes.TrimSpace(raw))
}

// decodeList decodes a list setting element by element, strictly, so that a
// number out of range names its element's field (scheduler.rules[1].percent).
func decodeList(path string, typ reflect.Type, raw json.RawMessage) (reflect.Value, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return reflect.Value{}, core.FailField(core.BadType, path, "malformed list: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	out := reflect.MakeSlice(typ, len(elems), len(elems))
	for i, el := range elems {
		dec := json.NewDecoder(bytes.NewReader(el))
		dec.DisallowUnknownFields()
		err := dec.Decode(out.Index(i).Addr().Interface())
		var typeErr *json.UnmarshalTypeError
		switch {
		case err == nil:
		case errors.As(err, &typeErr) && numberWanted(typeErr.Type.Kind()) != "" && strings.HasPrefix(typeErr.Value, "number") && typeErr.Field != "":
			return reflect.Value{}, numberError(fmt.Sprintf("%s[%d].%s", path, i, typeErr.Field),
				numberWanted(typeErr.Type.Kind()), json.RawMessage(strings.TrimPrefix(typeErr.Value, "number ")))
		default:
			return reflect.Value{}, core.FailField(core.BadType, path, "malformed list: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	return out, nil
}

// numberWanted says what a number of kind k must be, or "" for a kind that
// is not a number.
func numberWanted(k reflect.Kind) string {
	switch {
	case k == reflect.Float32 || k == reflect.Float64:
		return "a finite number"
	case k >= reflect.Int && k <= reflect.Uint64:
		return "a whole number within range"
	}
	return ""
}

// jsonKind names the JSON type of a raw value by its first byte.
func jsonKind(raw json.RawMessage) string {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}
