import './zod-config.ts';
import './mantine-styles.ts';
import './focus-ring.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { MantineProvider } from '@mantine/core';
import { App } from './App.tsx';
import { initI18n } from './i18n.ts';
import { appTheme, readableContrast } from './theme.ts';
import { followOtherTabs, useSessionStore } from './stores/session.ts';

void initI18n();
useSessionStore.getState().loadSession();
followOtherTabs(window);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={appTheme} cssVariablesResolver={readableContrast}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </MantineProvider>
  </StrictMode>,
);
