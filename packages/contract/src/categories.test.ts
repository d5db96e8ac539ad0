import { describe, expect, it } from 'vitest';
import { categoryPathParts, shortCategoryNames } from './categories.ts';

describe('a category path', () => {
  it('is read in parts between " / " or " > "; a plain name is one part', () => {
    expect(categoryPathParts('All / Saleable / Office Furniture')).toEqual(['All', 'Saleable', 'Office Furniture']);
    expect(categoryPathParts('Home & Garden > Plants')).toEqual(['Home & Garden', 'Plants']);
    expect(categoryPathParts('Heating')).toEqual(['Heating']);
    expect(categoryPathParts('A/B tests')).toEqual(['A/B tests']);
  });
});

describe('the short names of categories shown together', () => {
  it('shows a path by its last part, and a name without a separator as written', () => {
    const names = shortCategoryNames(['All / Saleable / Office Furniture', 'All / Saleable / Paper', 'Home & Garden > Plants', 'Heating', 'A/B tests']);
    expect(Object.fromEntries(names)).toEqual({
      'All / Saleable / Office Furniture': 'Office Furniture',
      'All / Saleable / Paper': 'Paper',
      'Home & Garden > Plants': 'Plants',
      Heating: 'Heating',
      'A/B tests': 'A/B tests',
    });
  });

  it('shows as many parts as tell apart two paths ending the same, with the separators written', () => {
    const names = shortCategoryNames(['All / Office / Chairs', 'All / Garden / Chairs', 'Home > Deep / Garden / Chairs', 'All / Tables']);
    expect(Object.fromEntries(names)).toEqual({
      'All / Office / Chairs': 'Office / Chairs',
      'All / Garden / Chairs': 'All / Garden / Chairs',
      'Home > Deep / Garden / Chairs': 'Deep / Garden / Chairs',
      'All / Tables': 'Tables',
    });
  });

  it('tells a path apart from a plain name or a shorter path it ends in, case aside', () => {
    const names = shortCategoryNames(['Chairs', 'All / chairs', 'Office / Desks', 'All / Office / Desks']);
    expect(Object.fromEntries(names)).toEqual({ Chairs: 'Chairs', 'All / chairs': 'All / chairs', 'Office / Desks': 'Office / Desks', 'All / Office / Desks': 'All / Office / Desks' });
  });

  it('gives no label to a blank or missing category, and one to a category listed twice', () => {
    const names = shortCategoryNames([null, undefined, '', '  ', 'All / Paper', 'All / Paper']);
    expect(Object.fromEntries(names)).toEqual({ 'All / Paper': 'Paper' });
    expect(shortCategoryNames([]).size).toBe(0);
  });
});
