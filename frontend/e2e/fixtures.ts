// A small, realistic folder of files for the browser tests and screenshots.

import { mkdirSync, writeFileSync, utimesSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';

const DAY = 86_400_000;

const files: [path: string, daysAgo: number, text: string][] = [
  [
    'Notes/roof-leak.md',
    2,
    `# Roof leak

Water came through the bedroom ceiling after the storm on Tuesday. The roofer
says two shingles lifted near the chimney flashing and the gutter is blocked.
Quote: 480 EUR, booked for Friday morning. Move the bookshelf before then.
`,
  ],
  [
    'Notes/meeting-notes-2026-03-04.md',
    40,
    `# Team meeting, 4 March

- Budget review moved to next week; finance wants the Q3 numbers first.
- Hiring: two backend engineers, one designer. Interviews start in April.
- The office move is planned for the summer; check the lease terms.
`,
  ],
  [
    'Work/Q3-quarterly_report.txt',
    12,
    `Quarterly report, Q3

Revenue grew 12 percent over the quarter, driven by the new subscription plan
and lower churn in the small business segment. Costs stayed flat. The board
asked for a forecast of Q4 with the new pricing.
`,
  ],
  [
    'Work/budget-plan-2026.md',
    5,
    `# Budget plan 2026

Hiring two engineers, moving the office, and a travel budget of 18,000 EUR.
Marketing spend stays at last year's level. Savings target: 6 percent.
`,
  ],
  [
    'Work/invoices/invoice-2291.txt',
    120,
    `INVOICE 2291
Client: Harbour Design Studio
Item: website redesign, 36 hours at 85 EUR
Total due: 3,060 EUR within 30 days.
`,
  ],
  [
    'Recipes/sourdough.md',
    300,
    `# Sourdough bread

Feed the starter the night before. Mix 500 g flour, 350 g water, 100 g starter
and 10 g salt. Fold every 30 minutes for two hours, proof overnight in the
fridge, bake at 250 °C in a covered pot for 20 minutes, then 25 uncovered.
`,
  ],
  [
    'Travel/lisbon-itinerary.md',
    25,
    `# Lisbon, five days

Day 1: Alfama and the castle. Day 2: Belém, pastries, the monastery.
Day 3: train to Sintra. Day 4: LX Factory and the river. Day 5: flight home.
Hotel near Rossio; tram 28 early in the morning to avoid the queue.
`,
  ],
  [
    'Garden/irrigation.md',
    60,
    `# Garden irrigation

Drip line along the tomato beds, 2 litres per plant per day in July.
The timer runs at 6:00 and 20:00. Replace the leaking connector by the shed.
`,
  ],
  [
    'Taxes/deductions-2025.csv',
    90,
    `date,category,amount,note
2025-01-14,home office,220.00,desk and chair
2025-03-02,donation,150.00,food bank
2025-06-21,training,480.00,online course
2025-11-05,health,95.50,glasses
`,
  ],
  [
    'Notes/reading-list.txt',
    8,
    `Reading list
- The Design of Everyday Things
- Thinking in Systems
- A Pattern Language
`,
  ],
];

/** Writes the files under root and returns their count. */
export function writeFixtures(root: string, opts: { pipe?: boolean } = {}): number {
  const now = Date.now();
  for (const [path, daysAgo, text] of files) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    const t = new Date(now - daysAgo * DAY);
    utimesSync(full, t, t);
  }
  let n = files.length;
  if (opts.pipe) {
    // A named pipe: Trove records it as failed, which fills the problems list.
    try {
      execFileSync('mkfifo', [join(root, 'Notes/old-export.fifo')]);
      n++;
    } catch {
      // no mkfifo: no problem to show
    }
  }
  return n;
}
