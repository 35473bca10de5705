// The pseudo-locale (en-XA): every catalogue message accented and in
// brackets, "[Šéåŕçĥ ýöûŕ ƒîļéš…]", so that text that did not come from the
// catalogue stands out. Placeholders ({{name}}), plural suffixes and the
// literal parts of a message (<code>…</code>, tags) are left as they are.

const accented: Record<string, string> = {
  a: 'å', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'î', j: 'ĵ', k: 'ķ', l: 'ļ', m: 'ɱ',
  n: 'ñ', o: 'ö', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'û', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Å', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Î', J: 'Ĵ', K: 'Ķ', L: 'Ļ', M: 'Ṁ',
  N: 'Ñ', O: 'Ö', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Û', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};

// What stays: placeholders, code spans and any tag.
const literal = /(\{\{[^}]*\}\}|<code>.*?<\/code>|<\/?[a-z]+>)/g;

export function pseudoText(s: string): string {
  const body = s
    .split(literal)
    .map((part, i) => (i % 2 ? part : part.replace(/[A-Za-z]/g, (c) => accented[c])))
    .join('');
  return `[${body}]`;
}

type Tree = { [key: string]: string | Tree };

/** A catalogue with every message made pseudo. */
export function pseudoCatalogue(tree: Tree): Tree {
  const out: Tree = {};
  for (const [k, v] of Object.entries(tree)) out[k] = typeof v === 'string' ? pseudoText(v) : pseudoCatalogue(v);
  return out;
}

/** Bidi isolates around an interpolated value: the test tells it from catalogue text. */
export const FSI = '\u2068';
export const PDI = '\u2069';
