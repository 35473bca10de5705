package views

import "trove/backend/service"

// Explain is "why this result" (POST /api/search/ with "explain": true):
// the parts of the score and the query words behind them.
type Explain struct {
	Keyword  ExplainKeyword  `json:"keyword"`
	Semantic ExplainSemantic `json:"semantic"`
	// Words are the query words the file matched, with their fields.
	Words []ExplainWord `json:"words"`
	// Name lists the query words found in the file's name, its extension
	// or its folders.
	Name []ExplainName `json:"name"`
	// Feedback lists the words pseudo-relevance feedback added to the
	// query (the same for every result; those this file holds are in
	// Words with source "feedback").
	Feedback []string `json:"feedback"`
}

// ExplainKeyword is keyword_score = text + name_weight * (name +
// name_exact).
type ExplainKeyword struct {
	Score float64 `json:"score"`
	Text  float64 `json:"text"`
	Name  float64 `json:"name"`
	// NameExact is added to Name when the query spells the file's name
	// out, word for word; absent otherwise.
	NameExact  float64 `json:"name_exact,omitempty"`
	NameWeight float64 `json:"name_weight"`
	// Proximity is the part of Text for the query's words standing close
	// together in the file's text.
	Proximity float64 `json:"proximity"`
}

// ExplainSemantic is semantic_score = exp(-distance) of the closest
// passage, with its cosine similarity.
type ExplainSemantic struct {
	Score      float64 `json:"score"`
	Similarity float64 `json:"similarity"`
}

// ExplainWord is one query word the file matched.
type ExplainWord struct {
	Word   string           `json:"word"`
	Source string           `json:"source"` // "query", "correction" or "feedback"
	Of     string           `json:"of,omitempty"`
	Fields map[string]int32 `json:"fields"` // occurrences per field
	Score  float64          `json:"score"`  // its part of keyword.text
}

// ExplainName is a query word and what of the file's place it matched:
// "name", "extension" or "folders".
type ExplainName struct {
	Word    string `json:"word"`
	Matched string `json:"matched"`
}

var sourceNames = map[service.SearchTermSource]string{
	service.SourceTyped: "query", service.SourceCorrected: "correction", service.SourceFeedback: "feedback",
}

func explainOf(x *service.SearchExplanation) *Explain {
	if x == nil {
		return nil
	}
	out := &Explain{
		Keyword: ExplainKeyword{Score: round(x.Keyword), Text: round(x.Text), Name: round(x.NameScore), NameExact: round(x.NameExact), NameWeight: x.NameWeight,
			Proximity: round(x.Proximity)},
		Semantic: ExplainSemantic{Score: round(x.Semantic), Similarity: round(x.Similarity)},
		Words:    []ExplainWord{}, Name: []ExplainName{}, Feedback: []string{},
	}
	for _, t := range x.Terms {
		out.Words = append(out.Words, ExplainWord{Word: t.Term, Source: sourceNames[t.Source], Of: t.Of, Fields: t.Fields, Score: round(t.Score)})
	}
	for _, n := range x.Name {
		out.Name = append(out.Name, ExplainName{Word: n.Word, Matched: n.Matched})
	}
	out.Feedback = append(out.Feedback, x.Feedback...)
	return out
}
