// The product's working name, in one place on the server (the web app has its own in its locale file).
export const productName = 'Stockwise';
