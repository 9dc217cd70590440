import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    assetsInlineLimit: 2048,
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: 'site',
                  minShareCount: 2,
                  test: /lucide-react|src[\\/]web[\\/]components[\\/](SiteFooter|ChatButton)|src[\\/]shared[\\/](constants|text)\./,
                },
                {
                  name: 'page-header',
                  minShareCount: 2,
                  test: /src[\\/]web[\\/](components[\\/]PageHeader|lib[\\/]NavLink)\./,
                },
              ],
            },
          },
        },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
}));
