package views

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"trove/backend/core"
)

// Decode decodes a request body into v strictly: one JSON value of the
// right shape, no unknown fields, nothing after it. Errors are 400s that say
// what is wrong and where.
func Decode(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return core.Invalid("INVALID_JSON", "request body is empty; send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return core.Invalid("INVALID_JSON", "malformed JSON body: %s", describeJSONError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return core.Invalid("INVALID_JSON", "malformed JSON body: unexpected data after the JSON value")
	}
	return nil
}

func describeJSONError(err error) string {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		if typeErr.Field != "" {
			return fmt.Sprintf("field %q must be %s, got %s", typeErr.Field, jsonTypeName(typeErr.Type.String()), typeErr.Value)
		}
		return fmt.Sprintf("expected %s, got %s", jsonTypeName(typeErr.Type.String()), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return fmt.Sprintf("%s (at byte %d)", syntaxErr.Error(), syntaxErr.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends too early"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func jsonTypeName(goType string) string {
	switch {
	case strings.Contains(goType, "[]"):
		return "a list"
	case strings.Contains(goType, "map[") || strings.Contains(goType, "struct"):
		return "an object"
	case strings.Contains(goType, "string"):
		return "a string"
	case strings.Contains(goType, "bool"):
		return "true or false"
	case strings.Contains(goType, "int"), strings.Contains(goType, "float"):
		return "a number"
	}
	return "another type"
}
