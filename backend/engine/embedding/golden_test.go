package embedding

// Golden values for TestGoldenVector: the first components of the semantic
// part and of the lexical part.
var (
	goldenVector = []float32{-0.06893696, -0.053008292, 0.026353987, -0.00024106982, -2.015093e-05, -0.04320065}
	goldenLex    = []float32{0, 0, 0.26330066, 0}
)

const goldenModel = "builtin:glove6b-sif-lex-100d-50k-v1-52a29009"
