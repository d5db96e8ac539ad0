import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { productName } from './src/product.ts';

// The server serves dist/ on the same port as the API (one base address, spec §7);
// `npm run dev` proxies /api to it.
export default defineConfig({
  plugins: [
    react(),
    {
      name: 'stockwise-product-name',
      transformIndexHtml: (html) => html.replaceAll('%PRODUCT_NAME%', productName),
    },
  ],
  server: {
    proxy: { '/api': { target: `http://127.0.0.1:${process.env['API_PORT'] ?? '8000'}` } },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
