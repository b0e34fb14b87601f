import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { openingPageReady, router } from './app/router';
import './styles.css';

/** How long the first render waits at most for the opening page's chunks (app/router.tsx `openingPageReady`). */
const WAIT_FOR_PAGE_MS = 3000;

const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );

void Promise.race([openingPageReady, new Promise((resolve) => setTimeout(resolve, WAIT_FOR_PAGE_MS))]).then(render);
