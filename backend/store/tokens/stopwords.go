package tokens

// stopwords are English function words, dropped from word queries because
// they match nearly everything and carry no meaning alone (kept inside
// quoted phrases). The list is the classic one of NLTK's English corpus.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		"i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours", "yourself",
		"yourselves", "he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself",
		"they", "them", "their", "theirs", "themselves", "what", "which", "who", "whom", "this", "that",
		"these", "those", "am", "is", "are", "was", "were", "be", "been", "being", "have", "has", "had",
		"having", "do", "does", "did", "doing", "a", "an", "the", "and", "but", "if", "or", "because", "as",
		"until", "while", "of", "at", "by", "for", "with", "about", "against", "between", "into", "through",
		"during", "before", "after", "above", "below", "to", "from", "up", "down", "in", "out", "on", "off",
		"over", "under", "again", "further", "then", "once", "here", "there", "when", "where", "why", "how",
		"all", "any", "both", "each", "few", "more", "most", "other", "some", "such", "no", "nor", "not",
		"only", "own", "same", "so", "than", "too", "very", "s", "t", "can", "will", "just", "don", "should",
		"now", "d", "ll", "m", "o", "re", "ve", "y", "ain", "aren", "couldn", "didn", "doesn", "hadn",
		"hasn", "haven", "isn", "ma", "mightn", "mustn", "needn", "shan", "shouldn", "wasn", "weren", "won",
		"wouldn", "also", "could", "would", "may", "might", "must", "shall", "upon", "us", "via",
	} {
		m[w] = true
	}
	return m
}()

// IsStopword reports whether a word (any case) is a stopword.
func IsStopword(w string) bool { return stopwords[Fold(w)] }
