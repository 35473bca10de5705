// The fields of the query language a search read (ext:pdf, size:>1mb,
// *.go), as chips: each edits or removes its own token of the query.

/** A field of the query as the search read it (the API's QueryField). */
export interface QueryField {
  field: string;
  value: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The field as it reads in a chip. */
export const fieldText = (f: QueryField): string => (f.field === 'name' && /[*?[]/.test(f.value) ? f.value : `${f.field}:${f.value}`);

/**
 * Where the field's token stands in the query, as typed: field:value,
 * field:"value" or, for a name glob, the glob alone; letter case aside.
 * null when the query does not hold it (it was rewritten since).
 */
export function fieldSpan(query: string, f: QueryField): { start: number; end: number } | null {
  const v = escape(f.value);
  const forms = [`${escape(f.field)}:"${v}"`, `${escape(f.field)}:${v}`];
  if (f.field === 'name') forms.push(v);
  const m = new RegExp(`(^|\\s)(-?(?:${forms.join('|')}))(?=\\s|$)`, 'i').exec(query);
  if (!m) return null;
  const start = m.index + m[1].length;
  return { start, end: start + m[2].length };
}

/** The query without the field's token. */
export function withoutField(query: string, f: QueryField): string {
  const at = fieldSpan(query, f);
  if (!at) return query;
  return (query.slice(0, at.start) + query.slice(at.end)).replace(/\s+/g, ' ').trim();
}
