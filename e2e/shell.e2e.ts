// The shell: navigation to every page and the assistant footer bar.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations } from './support/axe.ts';
import { pathOf, signIn, useBrowser } from './support/browser.ts';

const browser = useBrowser();

const pages = [
  { link: 'Dashboard', path: '/app/home' },
  { link: 'Forecasting', path: '/app/forecasting' },
  { link: 'Reports', path: '/app/reports' },
  { link: 'Data', path: '/app/datatab' },
  { link: 'Settings', path: '/app/settings' },
];

const heightOf = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((element) => element.getBoundingClientRect().height);
const rootFontSize = (page: Page) => page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));

describe('navigation', () => {
  it('links to every page and marks the current one', async () => {
    const { page } = browser;
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const { link, path } of [...pages.slice(1), pages[0]!]) {
      await nav.getByRole('link', { name: link, exact: true }).click();
      await page.waitForURL(`**${path}`);
      await page.getByRole('heading', { name: link, level: 1 }).waitFor();
      expect(await nav.getByRole('link', { name: link, exact: true }).getAttribute('aria-current')).toBe('page');
    }
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
  });

  // Keyboard only (ADR 0196): Enter on a navigation link opens the page with the focus on its heading,
  // so the next Tab goes on from the page, not from the navigation.
  it('takes the focus to the page heading after a navigation link is followed with Enter', async () => {
    const { page } = browser;
    await signIn(page);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const { link } of [...pages.slice(1), pages[0]!]) {
      await nav.getByRole('link', { name: link, exact: true }).focus();
      await page.keyboard.press('Enter');
      const heading = page.getByRole('heading', { name: link, level: 1 });
      await expect.poll(() => heading.evaluate((element) => element === document.activeElement), { timeout: 10_000 }).toBe(true);
    }
    expect(await axeViolations(page)).toEqual([]);
  });

  // The whole page, not a section: the app's readable shades are its theme's (ADR 0163), so a text
  // outside the checked sections (an empty state, the not-found page's link) cannot fall short.
  it('every screen, whole, passes axe once its data has loaded', async () => {
    const { page } = browser;
    await signIn(page);
    for (const { link, path } of [...pages, { link: 'Profile', path: '/profile' }, { link: 'Page not found', path: '/app/no-such-screen' }]) {
      await page.goto(`${browser.baseUrl}${path}`);
      await page.getByRole('heading', { name: link, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
      expect(await axeViolations(page), path).toEqual([]);
    }
  });
});

describe('a phone (390 × 844)', () => {
  it('keeps the header to two lines that scroll away, and gives the Data grid and the report list the whole width', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    const header = page.locator('header');
    expect(await header.evaluate((element) => element.getBoundingClientRect().height)).toBeLessThan(110);
    expect(await header.evaluate((element) => getComputedStyle(element).position)).toBe('static');
    const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

    await page.goto('/app/datatab?table=products');
    await page.getByTestId('data-grid').waitFor();
    expect((await box('[data-testid="data-grid"]')).width).toBeGreaterThan(340);
    expect(await overflow()).toBe(0);

    // The collapsed assistant keeps its 4rem: the prompt gets the whole width, the quick questions a row under it, all on screen.
    const bar = page.getByTestId('assistant-bar');
    expect(await heightOf(page, 'assistant-bar')).toBe(4 * (await rootFontSize(page)));
    expect((await bar.getByRole('button', { name: 'Open the assistant' }).boundingBox())!.width).toBeGreaterThan(300);
    const barBox = (await bar.boundingBox())!;
    for (const label of ['Show low stock', 'Reorder report', 'Deliveries']) {
      const quick = (await bar.getByRole('button', { name: label }).boundingBox())!;
      expect(quick.x + quick.width, label).toBeLessThanOrEqual(barBox.x + barBox.width);
      expect(quick.y + quick.height, label).toBeLessThanOrEqual(barBox.y + barBox.height);
    }
    await page.getByRole('button', { name: 'Add row' }).waitFor();
    expect(await page.getByRole('button', { name: 'Add row' }).evaluate((button) => button.scrollWidth <= button.clientWidth)).toBe(true);

    await page.goto('/app/reports');
    const firstReport = page.getByRole('button', { name: /Units sold per month by category/ });
    await firstReport.waitFor();
    expect((await firstReport.boundingBox())!.width).toBeGreaterThan(300);
    expect(await overflow()).toBe(0);
  });
});

describe('keyboard', () => {
  it('reaches the navigation with Tab and shows where the focus is', async () => {
    const { page } = browser;
    await signIn(page);
    // A page the browser loads keeps the browser's start (after signing in the focus is on the heading, ADR 0196).
    await page.goto('/app/home');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const dashboard = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard', exact: true });
    for (let presses = 0; presses < 5 && !(await dashboard.evaluate((element) => element === document.activeElement)); presses += 1) {
      await page.keyboard.press('Tab');
    }
    const outline = await dashboard.evaluate((element) => getComputedStyle(element).outlineStyle);
    expect(outline).toBe('solid');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/app/forecasting');
  });
});

describe('assistant footer bar', () => {
  it('collapsed: 4rem tall, glowing, types the page prompt', async () => {
    const { page } = browser;
    await signIn(page);
    const bar = page.getByTestId('assistant-bar');
    await bar.waitFor();
    expect(await heightOf(page, 'assistant-bar')).toBe(4 * (await rootFontSize(page)));
    const glow = await page.getByTestId('assistant-glow').evaluate((element) => {
      const style = getComputedStyle(element);
      return { duration: style.animationDuration, iterations: style.animationIterationCount };
    });
    expect(glow).toEqual({ duration: '4s', iterations: 'infinite' });
    await page.locator('[data-testid="assistant-prompt"][data-complete="true"]').waitFor();
    expect(await page.getByTestId('assistant-prompt').textContent()).toBe('What needs an order this week?');
    for (const label of ['Show low stock', 'Reorder report', 'Deliveries']) {
      expect(await bar.getByRole('button', { name: label }).isVisible()).toBe(true);
    }
  });

  it('expands to 24rem, ignores a blank message, answers, and collapses', async () => {
    const { page } = browser;
    await signIn(page);
    await page.getByRole('button', { name: 'Open the assistant' }).click();
    const panel = page.getByTestId('assistant-panel');
    await panel.waitFor();
    expect(await heightOf(page, 'assistant-panel')).toBe(24 * (await rootFontSize(page)));
    expect(await page.getByTestId('assistant-context').textContent()).toBe('Context: home (/home)');
    expect(await panel.getByRole('button', { name: 'inventory' }).getAttribute('aria-pressed')).toBe('true');
    expect(await panel.getByRole('button', { name: 'chat-interface' }).getAttribute('aria-pressed')).toBe('true');

    const input = page.getByPlaceholder('Type your message...');
    expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
    // The page's suggested question is ready to ask.
    expect(await input.inputValue()).toBe('What needs an order this week?');
    // The conversation is the user's history (other specs may have asked before): count from here.
    const before = await page.getByTestId('assistant-message').count();
    await input.fill('   ');
    await input.press('Enter');
    await panel.getByRole('button', { name: 'Send' }).click();
    expect(await page.getByTestId('assistant-message').count()).toBe(before);

    await input.fill('Which products run out first?');
    await panel.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('assistant-message').nth(before + 1).waitFor();
    expect(await page.getByTestId('assistant-message').nth(before).textContent()).toContain('Which products run out first?');
    // Answered from the data: the first product forecast to run out, or plainly that none is.
    expect(await page.getByTestId('assistant-message').nth(before + 1).textContent()).toMatch(/runs out first|No product is forecast to run out/);
    expect(await input.inputValue()).toBe('');

    await panel.getByRole('button', { name: 'Close the assistant' }).click();
    await page.getByTestId('assistant-bar').waitFor();
    expect(await panel.count()).toBe(0);
  });

  it('a quick button expands and sends its text; Esc collapses', async () => {
    const { page } = browser;
    await signIn(page);
    await page.getByRole('button', { name: 'Show low stock' }).click();
    await page.getByTestId('assistant-panel').waitFor();
    await expect.poll(() => page.locator('[data-testid="assistant-message"][data-role="user"]').last().textContent(), { timeout: 30_000 }).toContain('Show low stock');
    await expect.poll(() => page.locator('[data-testid="assistant-message"]').last().getAttribute('data-role'), { timeout: 30_000 }).toBe('assistant');
    await page.keyboard.press('Escape');
    await page.getByTestId('assistant-bar').waitFor();
    await page.getByRole('button', { name: 'Open the assistant' }).and(page.locator(':focus')).waitFor();
  });

  it('starts expanded on /app/reports', async () => {
    const { page } = browser;
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Reports', exact: true }).click();
    await page.getByTestId('assistant-panel').waitFor();
    expect(await page.getByTestId('assistant-context').textContent()).toBe('Context: reports (/reports)');
  });

  it('on /app/forecasting starts the assistant as a button (the chart stays visible), never the collapsed bar', async () => {
    const { page } = browser;
    await signIn(page);
    await page.getByRole('link', { name: 'Forecasting', exact: true }).click();
    await page.waitForURL('**/app/forecasting');
    await page.getByRole('button', { name: 'Ask the assistant' }).waitFor();
    expect(await page.getByTestId('assistant-bar').count()).toBe(0);
    expect(await page.getByTestId('assistant-panel').count()).toBe(0);
    await page.getByRole('button', { name: 'Ask the assistant' }).click();
    await page.getByTestId('assistant-panel').waitFor();
    expect(await page.getByTestId('assistant-context').textContent()).toBe('Context: forecasting (/forecasting)');
    await page.getByRole('button', { name: 'Close the assistant' }).click();
    await page.getByRole('button', { name: 'Ask the assistant' }).waitFor();
    expect(await page.getByTestId('assistant-bar').count()).toBe(0);
    expect(pathOf(page)).toBe('/app/forecasting');
  });
});
