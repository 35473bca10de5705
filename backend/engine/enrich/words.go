package enrich

import (
	_ "embed"
	"math"
	"strings"
	"sync"

	"trove/backend/store/tokens"
)

//go:embed words_en.txt
var wordsEN string

// lexEntry is a word of the frequency list with what is computed from it
// once: its Porter stem and its prior IDF.
type lexEntry struct {
	word, stem string
	idf        float64
}

var (
	priorOnce sync.Once
	lexIndex  map[string]int32 // word -> index into lexicon
	lexicon   []lexEntry
)

// unknownRank is the rank given to words outside the list: rarer than any
// listed word.
const unknownRank = 40000

// rankIDF turns a frequency rank into an estimate of how informative a
// word is: near 0 for "the", about 3 for the thousandth word and about 6.7
// for words outside the list. It stands in for the index's inverse
// document frequency when the index is empty.
func rankIDF(rank int) float64 { return math.Log(1 + float64(rank)/50) }

var unknownIDF = rankIDF(unknownRank)

// lookupWord returns the list's entry for a lower-case word, if listed.
func lookupWord(w []byte) (*lexEntry, bool) {
	priorOnce.Do(loadPrior)
	if i, ok := lexIndex[string(w)]; ok {
		return &lexicon[i], true
	}
	return nil, false
}

func loadPrior() {
	lexIndex = make(map[string]int32, 20100)
	lexicon = make([]lexEntry, 0, 20000)
	for line := range strings.Lines(wordsEN) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if _, dup := lexIndex[line]; dup {
			continue
		}
		lexIndex[line] = int32(len(lexicon))
		lexicon = append(lexicon, lexEntry{word: line, stem: tokens.Stem(line), idf: rankIDF(len(lexicon) + 1)})
	}
}

func set(lists ...string) map[string]bool {
	m := make(map[string]bool)
	for _, l := range lists {
		for _, w := range strings.Fields(l) {
			m[w] = true
		}
	}
	return m
}

// stopwords are never keywords: function words and words too generic to
// tell one file from another.
var stopwords = set(`
a about above according across actually after afterwards again against ago all almost alone along
already also although always am among amongst an and another any anybody anyhow anyone anything
anyway anyways anywhere are aren around as aside at away back be became because become becomes
becoming been before beforehand behind being below beside besides best better between beyond both
brief but by came can cannot cant could couldn did didn do does doesn doing don done down during each
either else elsewhere enough especially etc even ever every everybody everyone everything everywhere
except far few fewer first for former formerly from further furthermore get gets getting give given
gives go goes going gone got gotten had hadn has hasn have haven having he hence her here hereafter
hereby herein hers herself him himself his how however i ie if in inc indeed instead into is isn it
its itself just keep keeps kept know known last later latter least less let lets like likely ll ltd
made mainly make makes making many may maybe me meanwhile might mine more moreover most mostly much
must my myself namely near nearly need needs neither never nevertheless new next no nobody non none
noone nor not nothing now nowhere of off often oh ok okay on once one ones only onto or other others
otherwise ought our ours ourselves out over overall own per perhaps please put quite rather re
really regarding same say said says see seem seemed seeming seems seen self selves several shall she
should shouldn since so some somebody somehow someone something sometime sometimes somewhat somewhere
soon still such sure take taken takes than that thats the their theirs them themselves then thence
there thereafter thereby therefore therein thereupon these they thing things this those though
through throughout thru thus to together too took toward towards try trying two under unless until
up upon us use used uses using usually ve very via want wants was wasn way ways we well went were
weren what whatever when whence whenever where whereafter whereas whereby wherein whereupon wherever
whether which while whither who whoever whole whom whose why will with within without won wont would
wouldn yes yet you your yours yourself yourselves
able across lot lots many much new old good great little big small large long high low right left
three four five six seven eight nine ten hundred thousand million billion
first second third fourth fifth next last previous following
also can could might must shall should will would
come comes coming go goes going look looks looking looked find finds found think thinks thought
tell told ask asked want wanted seem seemed become became put puts set sets show shows shown call
called work works worked part parts case cases point points fact kind sort type types example
examples e.g i.e eg vs via within without etc
today yesterday tomorrow day days week weeks month months year years time times
monday tuesday wednesday thursday friday saturday sunday
january february march april june july august september october november december jan feb mar apr
jun jul aug sep sept oct nov dec
http https www com org net html htm php asp aspx amp nbsp quot
hi hello dear thanks thank cheers regards sincerely yours faithfully attached attachment
`)

// foreignStopwords are the commonest function words of German, French,
// Spanish, Italian, Dutch and Portuguese, so that documents in them do not
// get "und" or "les" as keywords (the frequency list knows only English).
// Words that are also English content words (hat, war, door, van) are
// left out.
var foreignStopwords = set(`
aber alle allem allen aller alles als also am an ander andere anderen auch auf aus bei beim bis
bist da damit dann das dass dein deine dem den der des dessen deshalb dich die dies diese diesem
diesen dieser dieses dir doch dort du durch ein eine einem einen einer eines einige er es etwas euch
euer für gegen gewesen hab habe haben hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre
im in indem ins ist jede jedem jeden jeder jedes jetzt kann kein keine können könnte mich mir mit
muss musste nach nicht nichts noch nun nur ob oder ohne sehr sein seine sich sie sind so solche soll
sollte sondern sonst über um und uns unser unter vom von vor waren warum was weil welche wenn
werde werden wie wieder wir wird wirst wo wollen würde zu zum zur zwar zwischen
au aux avec ce ces cet cette dans de des du elle elles en est et être eux il ils je la le les leur
leurs lui ma mais me même mes moi mon ne nos notre nous on ont ou où par pas qu que qui sa sans
se ses sont sur ta te tes toi ton tu un une vos votre vous était sont été avait aussi comme
plus tout tous toute toutes très fait peut
al algo algunas algunos ante antes como contra cual cuando del desde donde durante el ella ellas
ellos entre es esa esas ese eso esos esta estaba estas este esto estos fue ha la las le les
lo los más me mi mis mucho muy nada ni no nos nosotros o otra otro para pero poco por porque que
quien se ser si sobre su sus también te tiene todo todos tu un una uno unos y ya
alla alle anche che chi ci come cui da dal dalla degli dei del della delle dello di e gli ha
hanno il in io la le lei lo loro lui ma mi nei nel nella non noi per più questa questo se si sono su
sua sue suo sulla tra tu un una uno
aan al als bij dan dat de der deze die dit een en er had heb hebben heeft het hij hoe hun ik
in is je kan maar me met mij na naar niet nog nu of om onder ons ook op over te tot u uit veel
voor was wat we wel werd wie wij wordt zal ze zich zij zijn zo zou
ao aos as às com da das dele dela do dos ela elas ele eles em entre essa esse está foi há isso isto
já mais mas muito na nas não nem no nos num numa os ou para pela pelo por quando que se sem ser seu
sua são também te tem um uma você
`)

// codeStopwords are also never keywords in source code: the keywords and
// everyday identifiers of common programming languages.
var codeStopwords = set(`
abstract and append args argv as assert async await bool boolean break byte bytes case catch
char class const continue ctx def default defer del delete do double elif else end enum err error
errors except export extends extern false final finally float float32 float64 fmt fn for foreach
from func function go goto if impl implements import in include int int8 int16 int32 int64
interface is lambda len let long map match mod module mut namespace new nil none not null object
of or package pass print printf println private protected pub public raise range ref return rune
self short signed sizeof static str string struct super switch sync this throw throws true try
type typedef typeof uint uint8 uint16 uint32 uint64 uintptr unsafe unsigned use using val var void
volatile where while with yield todo fixme xxx src dst tmp buf ok val vals arg res req resp
`)
