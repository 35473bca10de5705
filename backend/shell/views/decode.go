package views

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"

	"trove/backend/core"
)

// Decode decodes a request body into v strictly: one JSON value of the
// right shape, no unknown fields, nothing after it. Errors are 400s that say
// what is wrong and where.
func Decode(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return core.Fail(core.BadJSON, "request body is empty; send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if field, problem, ok := numberProblem(err); ok {
			return core.FailField(core.BadNumber, field, "%s", problem)
		}
		return core.Fail(core.BadJSON, "malformed JSON body: %s", describeJSONError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return core.Fail(core.BadJSON, "malformed JSON body: unexpected data after the JSON value")
	}
	return nil
}

// numberProblem describes a number that does not fit its field (1e999
// for a number, 2.5 or 1e20 for a whole number): the field and what is
// wrong. JSON itself has no NaN or infinities, so this is how a non-finite
// number arrives.
func numberProblem(err error) (field, problem string, ok bool) {
	var typeErr *json.UnmarshalTypeError
	if !errors.As(err, &typeErr) || !strings.HasPrefix(typeErr.Value, "number") || typeErr.Field == "" {
		return "", "", false
	}
	// A number sent for a string or a list is a wrong type, not a number
	// out of range: describeJSONError says so.
	want := "a finite number"
	switch k := typeErr.Type.Kind(); {
	case k >= reflect.Int && k <= reflect.Uint64:
		want = "a whole number within range"
	case k != reflect.Float32 && k != reflect.Float64:
		return "", "", false
	}
	return typeErr.Field, fmt.Sprintf("must be %s, got %s", want, strings.TrimPrefix(typeErr.Value, "number ")), true
}

// ParseNumber reads a number from a query-string parameter: a plain
// decimal (such as 0.5 or -2e-3), finite; NaN, infinities, hexadecimal and
// numbers too large for a float are refused.
func ParseNumber(name, raw string) (float64, error) {
	bad := raw == "" || strings.IndexFunc(raw, func(r rune) bool { return !strings.ContainsRune("0123456789+-.eE", r) }) >= 0
	v, err := strconv.ParseFloat(raw, 64)
	if bad || err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, core.FailField(core.BadParameter, name, "must be a finite decimal number, got %q", raw)
	}
	return v, nil
}

func describeJSONError(err error) string {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		if typeErr.Field != "" {
			return fmt.Sprintf("field %q must be %s, got %s", typeErr.Field, jsonTypeName(typeErr.Type), typeErr.Value)
		}
		return fmt.Sprintf("expected %s, got %s", jsonTypeName(typeErr.Type), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return fmt.Sprintf("%s (at byte %d)", syntaxErr.Error(), syntaxErr.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends too early"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonTypeName names a Go type as JSON calls its values.
func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch k := t.Kind(); {
	case k == reflect.Slice || k == reflect.Array:
		return "a list"
	case k == reflect.Map || k == reflect.Struct:
		return "an object"
	case k == reflect.String:
		return "a string"
	case k == reflect.Bool:
		return "true or false"
	case k >= reflect.Int && k <= reflect.Float64:
		return "a number"
	}
	return "another type"
}
