import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: process.env.CLIENT_OUT_DIR || 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    // scripts/bundle-size.mjs reads which chunks each route loads from .vite/manifest.json.
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
});
