package embedding

// Golden values for TestGoldenVector: the first components of the semantic
// part and of the lexical part.
var (
	goldenVector = []float32{-0.051775075, -0.052918512, 0.027075548, 0.011412873, 0.006747235, -0.049252853}
	goldenLex    = []float32{0, 0, 0.26330066, 0}
)

const goldenModel = "builtin:glove6b-sif-lex-100d-50k-v1-63664c7a"
