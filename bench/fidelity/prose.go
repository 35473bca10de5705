package main

import "strings"

// paragraphs is the source text of the documents made from text: plain
// prose with accents, ligature-prone letter pairs (fi, fl, ff, ffi),
// quotes, dashes and numbers, as real documents have.
var paragraphs = []string{
	`The harbour office opened at seven, and the first ferry left for Zürich-bound travellers a little after eight. Nobody could remember a quieter morning: the gulls were silent, the café on the quay had not yet lit its ovens, and the fishermen mended nets without a word.`,
	`Margarethe kept a ledger of every shipment that passed through the warehouse. Her entries were terse — a date, a weight in kilograms, a destination — but they told the story of 1,482 crates of coffee, 317 barrels of olive oil and one very confused piano.`,
	`In the afternoon the surveyors arrived with their theodolites and tripods. They measured the façade of the old customs house twice, argued about a discrepancy of fourteen millimetres, and finally agreed that the building was leaning gently toward the sea.`,
	`"Efficiency is overrated," the harbourmaster liked to say, usually while waiting for a form to be stamped by three different offices. His naïve optimism about bureaucracy was legendary; his patience, less so.`,
	`The fluffy waffles served at the dockside stall were famous well beyond the town. Visitors from Lyon, Kraków and São Paulo queued for them on Sundays, and the recipe, written on a scrap of paper, was locked in a tin box behind the counter.`,
	`Winter storms battered the breakwater every January. The engineers reinforced it with granite blocks weighing twelve tonnes each, quarried in the hills to the north and hauled down the valley on a narrow-gauge railway built for that purpose.`,
	`A small library occupied the upper floor of the lighthouse keeper's cottage. Its shelves held atlases, tide tables, a complete set of nautical almanacs from 1923 onward, and a surprising number of detective novels with affectionate notes in the margins.`,
	`The annual regatta drew forty-six boats in its best year. Crews trained for months, studying currents and wind patterns, and the winning skipper received a silver cup engraved with the names of every champion since the race began.`,
	`Ferdinand repaired clocks in a workshop no wider than a corridor. Customers brought him pocket watches, mantel clocks and once an astronomical regulator whose gears had been filed by hand, and he returned each one ticking with quiet satisfaction.`,
	`During the flood of the spring equinox, water rose to the second step of the town hall. Volunteers carried sandbags through the night, the bakery handed out free bread, and the mayor waded through the square in borrowed fishing boots.`,
	`The botanist catalogued lichens on the northern cliffs: orange crusts, grey rosettes, delicate filaments swaying in the salt spray. Her field notebooks, now archived at the university, list two hundred and nine species with careful sketches of each.`,
	`Trade declined after the new motorway bypassed the coast, yet the harbour endured. Artists rented the empty warehouses, a cooperative restored the fishing fleet, and by the end of the decade the quay was busier than it had been in fifty years.`,
}

// prose returns n paragraphs starting at paragraph start, separated by
// blank lines.
func prose(start, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = paragraphs[(start+i)%len(paragraphs)]
	}
	return strings.Join(out, "\n\n") + "\n"
}
