import { describe, expect, it } from 'vitest';
import { fieldSpan, fieldText, withoutField } from './fields';

describe('field chips', () => {
  it('find the field as typed, quoted or not, or a bare glob', () => {
    expect(fieldSpan('budget ext:pdf 2024', { field: 'ext', value: 'pdf' })).toEqual({ start: 7, end: 14 });
    expect(fieldSpan('author:"Jane Doe" notes', { field: 'author', value: 'Jane Doe' })).toEqual({ start: 0, end: 17 });
    expect(fieldSpan('writer *.go', { field: 'name', value: '*.go' })).toEqual({ start: 7, end: 11 });
    expect(fieldSpan('EXT:PDF', { field: 'ext', value: 'pdf' })).toEqual({ start: 0, end: 7 });
    expect(fieldSpan('text:pdf', { field: 'ext', value: 'pdf' })).toBeNull();
  });

  it('remove one field and keep the rest of the query', () => {
    expect(withoutField('budget ext:pdf size:>1mb', { field: 'ext', value: 'pdf' })).toBe('budget size:>1mb');
    expect(withoutField('size:>1mb', { field: 'size', value: '>1mb' })).toBe('');
    expect(withoutField('roof', { field: 'ext', value: 'pdf' })).toBe('roof');
  });

  it('show a glob as typed and other fields with their names', () => {
    expect(fieldText({ field: 'name', value: '*.go' })).toBe('*.go');
    expect(fieldText({ field: 'name', value: 'writer.go' })).toBe('name:writer.go');
    expect(fieldText({ field: 'size', value: '>1mb' })).toBe('size:>1mb');
  });
});
