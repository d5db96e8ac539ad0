// The product's working name, kept here only (DESIGN.md): the page title and every UI string that
// names the product take it from this constant (i18next default variable `{{product}}`).
export const productName = 'Stockwise';
