// After a route change the focus goes to the new page's heading (ADR 0196).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useEffect, useRef, useState } from 'react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { isBrowsersLoadedPage, useFocusPageHeading } from './page-focus.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** Enter on a focused link: the browser follows it as a click (user-event is not among the web project's packages). */
function followWithEnter(name: string) {
  const link = screen.getByRole('link', { name });
  link.focus();
  expect(document.activeElement).toBe(link);
  fireEvent.click(link);
}

/** A page whose heading comes once its "code" has loaded, as a lazily loaded screen's does. */
function SlowPage() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLoaded(true), 30);
    return () => clearTimeout(timer);
  }, []);
  return loaded ? <h1>Reports</h1> : <p role="status">Loading</p>;
}

function SearchPage() {
  return (
    <>
      <h1>Search</h1>
      <input aria-label="Query" autoFocus />
    </>
  );
}

function Shell({ loadedPage }: { loadedPage: boolean }) {
  const main = useRef<HTMLElement>(null);
  useFocusPageHeading(main, useLocation().pathname, loadedPage);
  return (
    <>
      <nav>
        <Link to="/home">Dashboard</Link>
        <Link to="/reports">Reports</Link>
        <Link to="/search">Search</Link>
      </nav>
      <main ref={main}>
        <Routes>
          <Route path="/home" element={<h1>Dashboard</h1>} />
          <Route path="/reports" element={<SlowPage />} />
          <Route path="/search" element={<SearchPage />} />
        </Routes>
      </main>
    </>
  );
}

/** `loadedPage`: the first page is the one the browser loaded, not one reached by signing in. */
const renderShell = (loadedPage = false) =>
  render(
    <MemoryRouter initialEntries={['/home']}>
      <Shell loadedPage={loadedPage} />
    </MemoryRouter>,
  );

describe('the page the browser loaded', () => {
  it('is the first page shown, only once in a document and only at the path loaded', () => {
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ name: 'https://shop.example/app/reports' } as PerformanceEntry]);
    expect(isBrowsersLoadedPage('/app/reports')).toBe(true);
    // Logged out and signed in again: the shell's first page is now reached inside the app.
    expect(isBrowsersLoadedPage('/app/reports')).toBe(false);
  });
});

describe('the focus after a route change', () => {
  it("stays at the browser's start on the page the browser loaded", () => {
    renderShell(true);
    expect(document.activeElement).toBe(document.body);
    expect(screen.getByRole('heading', { name: 'Dashboard' }).hasAttribute('tabindex')).toBe(false);
  });

  it('is on the page heading when the page opens after an in-app navigation (signing in), and it adds no Tab stop', () => {
    renderShell();
    const heading = screen.getByRole('heading', { name: 'Dashboard' });
    expect(document.activeElement).toBe(heading);
    expect(heading.tabIndex).toBe(-1);
  });

  it('moves from the navigation link to the new page heading once the page has loaded', async () => {
    renderShell(true);
    followWithEnter('Reports');
    expect(screen.getByRole('link', { name: 'Reports' })).toBe(document.activeElement);
    const heading = await screen.findByRole('heading', { name: 'Reports' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it('leaves the focus where the page put it', async () => {
    renderShell();
    followWithEnter('Search');
    expect(document.activeElement).toBe(await screen.findByRole('textbox', { name: 'Query' }));
  });

  it('leaves the focus where the user moved it while the page was loading', async () => {
    renderShell();
    followWithEnter('Reports');
    const search = screen.getByRole('link', { name: 'Search' });
    search.focus();
    await screen.findByRole('heading', { name: 'Reports' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).toBe(search);
  });
});
