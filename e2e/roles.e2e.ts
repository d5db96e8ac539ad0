// Roles and sessions through the real screens: a new account waits for approval, an administrator
// approves it as viewer on Settings → Users, an administrator adds a colleague there who signs in
// with the starting password and chooses their own first (and again after a reset), the viewer sees
// no destructive controls and the
// server's 403 message when one comes anyway; logout revokes the refresh token; a password change
// signs in again with the new password.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { axeViolations } from './support/axe.ts';
import { fillLogin, launchChromium, signIn, useBrowser } from './support/browser.ts';
import { demoUser, registerUser } from './support/context.ts';

const browser = useBrowser();
const baseUrl = () => inject('baseUrl');

async function api(path: string, options: { token?: string; body?: unknown } = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const answer = await fetch(`${baseUrl()}${path}`, {
    method: options.body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await answer.text();
  return { status: answer.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const accessOf = async (user: { username: string; password: string }) => (await api('/api/token/', { body: user })).json.access as string;

async function userIdOf(adminToken: string, username: string): Promise<number> {
  const users = (await api('/api/accounts/users/', { token: adminToken })).json.results as { id: number; username: string }[];
  const found = users.find((user) => user.username === username);
  if (!found) throw new Error(`no user ${username}`);
  return found.id;
}

async function signInAsNew(page: Page, user: { username: string; password: string }) {
  await page.goto('/login');
  await fillLogin(page, user.username, user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/app/home');
}

/** The calls the server refuses while `during` runs: the gate mounts no page whose calls a starting password may not make. */
async function refusedCallsDuring(page: Page, during: () => Promise<void>): Promise<string[]> {
  const refused: string[] = [];
  const onResponse = (response: Response) => {
    if (response.status() === 403) refused.push(new URL(response.url()).pathname);
  };
  page.on('response', onResponse);
  try {
    await during();
  } finally {
    page.off('response', onResponse);
  }
  return refused;
}

async function openProductsFiltered(page: Page, code: string) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Data', exact: true }).click();
  await page.getByRole('treeitem', { name: 'products', exact: true }).click();
  await page.getByTestId('table-title').filter({ hasText: 'products' }).waitFor();
  await page.getByLabel('Filter Product code').fill(code);
}

/** From the choose-your-password screen: Profile, the starting password as the current one, a new one; then the shell opens. */
async function chooseOwnPassword(page: Page, startingPassword: string, ownPassword: string) {
  await page.getByRole('link', { name: 'Change your password in Profile' }).click();
  await page.getByTestId('choose-password-notice').waitFor();
  // The visit is for the form: it opens on the current password.
  await page.waitForFunction(() => document.activeElement?.getAttribute('autocomplete') === 'current-password');
  await page.getByLabel('Current password').fill(startingPassword);
  await page.getByLabel('New password', { exact: true }).fill(ownPassword);
  await page.getByLabel('Confirm new password').fill(ownPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByTestId('password-message').waitFor();
  await page.getByTestId('choose-password-notice').waitFor({ state: 'detached' });
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
}

describe('roles in the web app', () => {
  it('a new account waits for approval, an admin approves it as viewer, the viewer cannot destroy', async () => {
    const { page } = browser;
    const user = await registerUser(baseUrl());
    await signInAsNew(page, user);
    await page.getByTestId('awaiting-approval').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The administrator, in a browser of their own, approves the account on Settings → Users.
    const adminBrowser = await launchChromium();
    try {
      const adminPage = await (await adminBrowser.newContext({ baseURL: baseUrl() })).newPage();
      await signIn(adminPage);
      // An address naming a section opens Settings at it: the Users panel is the seventh, far below the fold.
      await adminPage.goto('/app/settings#users-title');
      const inView = (name: string) => adminPage.getByRole('heading', { name, level: 2 }).evaluate((heading) => heading.getBoundingClientRect().top > 0 && heading.getBoundingClientRect().bottom < window.innerHeight);
      await expect.poll(() => inView('Users'), { timeout: 15_000 }).toBe(true);
      const contents = adminPage.getByRole('navigation', { name: 'Settings sections' });
      // The Demo data link joins once the panel has read that the demo products are here (its own request).
      await expect.poll(() => contents.getByRole('link').allTextContents(), { timeout: 15_000 }).toEqual(['Demo data', 'Shop', 'Data integration', 'Import log', 'Import entities', 'Scheduled integrations', 'Users']);
      await contents.getByRole('link', { name: 'Shop', exact: true }).click();
      await expect.poll(() => inView('Shop'), { timeout: 5_000 }).toBe(true);
      await contents.getByRole('link', { name: 'Users', exact: true }).click();
      const row = adminPage.locator(`[data-testid="user-row"][data-username="${user.username}"]`);
      await row.waitFor();
      expect(await row.getByRole('combobox').inputValue()).toBe('pending');
      // Named after its account: a list of buttons tells two waiting accounts apart.
      await row.getByRole('button', { name: `Approve as viewer: ${user.username}`, exact: true }).click();
      await row.getByText('Active').waitFor();
      expect(await row.getByRole('combobox').inputValue()).toBe('viewer');
      expect(await axeViolations(adminPage, '[data-testid="users-panel"]')).toEqual([]);
    } finally {
      await adminBrowser.close();
    }

    // A reload renews the access token, which now carries the viewer role.
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const admin = await accessOf(demoUser);
    const code = `VIEW-${randomBytes(3).toString('hex')}`;
    const productId = (await api('/api/records/tables/products/rows/add/', { token: admin, body: { product_code: code, name: `Viewer check ${code}` } })).json.id as number;
    await openProductsFiltered(page, code);
    await page.locator(`[data-testid="data-grid"] [data-row-id="${productId}"]`).waitFor();
    expect(await page.getByRole('button', { name: `Delete ${code} — ` }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add row' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add table' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Actions for table/ }).count()).toBe(0);
    expect(await axeViolations(page, '[data-testid="data-grid"]')).toEqual([]);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByTestId('import-viewer-note').waitFor();
    expect(await page.getByTestId('users-panel').count()).toBe(0);
    // The contents list only the sections a viewer has.
    expect(await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link').allTextContents()).toEqual(['Data integration', 'Import log', 'Scheduled integrations']);
    // An import entity's configuration is saved by administrators only (ADR 0179).
    expect(await page.getByTestId('entities-panel').count()).toBe(0);
    // The shop's currency is an administrator's choice (ADR 0166): a viewer reads it on the figures only.
    expect(await page.getByTestId('shop-panel').count()).toBe(0);
    // Why the integrations' switches are greyed and there is nothing to edit, said as the import card says it.
    expect(await page.getByTestId('integrations-role-note').textContent()).toBe(
      'Your role (viewer) can see integrations and read their logs. Only an administrator can add, change, switch on or off, or delete them; an editor can run them.',
    );
    expect(await axeViolations(page, '[data-testid="integrations-panel"]')).toEqual([]);
    // Reports: the demo's example reports to read and run, none to create or change.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Reports', exact: true }).click();
    await page.getByText('Select a report on the left to see its rows and chart.').waitFor();
    expect(await page.getByTestId('new-report').count()).toBe(0);
    await page.locator('[data-testid="report-list"] button', { hasText: 'Stock value by category' }).click();
    await page.getByText('You can run this report; only its owner or an administrator can change it.').waitFor();
    // Opened, it runs: its rows and chart come without pressing Run.
    await page.locator('[data-testid="report-chart"][data-chart-type="bar"] .recharts-bar-rectangle').first().waitFor();

    // A destructive request sent anyway (the viewer's own token) is refused with the server's words.
    const forced = await page.evaluate(
      async ({ token, id }) => {
        const answer = await fetch('/api/records/tables/products/rows/delete/', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ id }) });
        return { status: answer.status, body: (await answer.json()) as { detail: string; code: string } };
      },
      { token: await accessOf(user), id: productId },
    );
    expect(forced).toEqual({ status: 403, body: { detail: 'Your role (viewer) may not do this; it needs editor.', code: 'forbidden' } });
  });

  it('an administrator adds a colleague in a dialog; the colleague signs in with the starting password as the role given and chooses their own first', async () => {
    const { page } = browser;
    const username = `added-${randomBytes(3).toString('hex')}`;
    await signIn(page);
    await page.goto('/app/settings');
    const addButton = page.getByTestId('users-panel').getByRole('button', { name: 'Add user' });
    await addButton.click();
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByLabel('Username').waitFor();
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    // Escape closes the dialog and gives the focus back to its opener.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await addButton.evaluate((button) => button === document.activeElement)).toBe(true);

    // A taken username is refused under its field, in the registration's words.
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Username').fill(demoUser.username.toUpperCase());
    await page.keyboard.press('Enter');
    await dialog.getByText('A user with that username already exists.').waitFor();

    await dialog.getByLabel('Username').fill(username);
    await dialog.getByLabel('Role').selectOption('editor');
    // A typed password meets the registration's rules: too short here, the username on the server.
    await dialog.getByLabel('Type a password').check();
    await dialog.getByLabel('Password', { exact: true }).fill('short');
    await page.keyboard.press('Enter');
    await dialog.getByText('Ensure this field has at least 8 characters.').waitFor();
    await dialog.getByLabel('Password', { exact: true }).fill(username.toUpperCase());
    await page.keyboard.press('Enter');
    await dialog.getByText('The password is too similar to the username.').waitFor();
    await dialog.getByLabel('Generate a password').check();
    await page.keyboard.press('Enter');
    await dialog.getByTestId('user-added').waitFor();
    const startingPassword = (await dialog.getByTestId('starting-password').textContent()) ?? '';
    expect(startingPassword).toMatch(/^\S{4}(-\S{4}){3}$/);
    await dialog.getByText(`Pass this password on to ${username}`).waitFor();
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    // Listed at once, approved, with the role given.
    const row = page.locator(`[data-testid="user-row"][data-username="${username}"]`);
    await row.waitFor();
    expect(await row.getByRole('combobox').inputValue()).toBe('editor');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await addButton.evaluate((button) => button === document.activeElement)).toBe(true);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.getByText('No account? Ask your administrator to add you in Settings → Users.').waitFor();
    // Until the password is chosen, nothing behind the gate asks for what the account may not have
    // yet (the dashboard and the assistant would be refused 403 password_change_required), also after a reload.
    const refusedBehindGate = await refusedCallsDuring(page, async () => {
      await signInAsNew(page, { username, password: startingPassword });
      // A starting password is replaced before anything else: no navigation, no assistant, a way to Profile.
      await page.getByTestId('choose-password').waitFor();
      expect(await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect((await api('/api/accounts/me/', { token: await accessOf({ username, password: startingPassword }) })).json).toMatchObject({ username, role: 'editor', must_change_password: true });
      await page.reload();
      await page.getByTestId('choose-password').waitFor();
      await chooseOwnPassword(page, startingPassword, 'a harbour of my own 8');
    });
    expect(refusedBehindGate).toEqual([]);

    // Forgotten: the administrator gives a new starting password; the colleague's sign-in ends.
    const adminBrowser = await launchChromium();
    try {
      const adminPage = await (await adminBrowser.newContext({ baseURL: baseUrl() })).newPage();
      await signIn(adminPage);
      await adminPage.goto('/app/settings');
      const resetButton = adminPage.getByRole('button', { name: `Reset password of ${username}` });
      await resetButton.click();
      const resetDialog = adminPage.getByRole('dialog', { name: `Reset the password of ${username}` });
      await resetDialog.getByText('Their sign-ins end now').waitFor();
      expect(await axeViolations(adminPage, '[role="dialog"]')).toEqual([]);
      await resetDialog.getByRole('button', { name: 'Reset password' }).click();
      await resetDialog.getByTestId('password-reset').waitFor();
      const resetPassword = (await resetDialog.getByTestId('starting-password').textContent()) ?? '';
      expect(resetPassword).toMatch(/^\S{4}(-\S{4}){3}$/);
      await adminPage.locator(`[data-testid="user-row"][data-username="${username}"]`).getByText('Starting password').waitFor();
      await resetDialog.getByRole('button', { name: 'Done' }).click();
      await resetDialog.waitFor({ state: 'detached' });
      expect(await resetButton.evaluate((button) => button === document.activeElement)).toBe(true);

      expect((await api('/api/token/', { body: { username, password: 'a harbour of my own 8' } })).status).toBe(401);
      // The colleague's tab, open since before the reset, meets the gate at its next call for data.
      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Forecasting', exact: true }).click();
      await page.getByTestId('choose-password').waitFor();
      await signInAsNew(page, { username, password: resetPassword });
      await page.getByTestId('choose-password').waitFor();
      await chooseOwnPassword(page, resetPassword, 'a lighthouse of my own 9');
    } finally {
      await adminBrowser.close();
    }
  });

  it("shows the server's 403 when a control offered to a role it has since lost is used", async () => {
    const { page } = browser;
    const user = await registerUser(baseUrl());
    const admin = await accessOf(demoUser);
    const userId = await userIdOf(admin, user.username);
    await api(`/api/accounts/users/${userId}/role/`, { token: admin, body: { role: 'editor' } });
    const code = `LOST-${randomBytes(3).toString('hex')}`;
    const productId = (await api('/api/records/tables/products/rows/add/', { token: admin, body: { product_code: code, name: `Lost role ${code}` } })).json.id as number;
    await signIn(page, user);
    await openProductsFiltered(page, code);
    await page.locator(`[data-testid="data-grid"] [data-row-id="${productId}"]`).waitFor();
    // Demoted while the page still shows the editor's controls.
    await api(`/api/accounts/users/${userId}/role/`, { token: admin, body: { role: 'viewer' } });
    await page.getByRole('button', { name: `Delete ${code} — ` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete row' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByRole('alert').textContent()).toContain('Your role (viewer) may not do this; it needs editor.');
  });
});

describe('sessions in the web app', () => {
  it('logout revokes the refresh token on the server', async () => {
    const { page } = browser;
    const user = await registerUser(baseUrl());
    await api(`/api/accounts/users/${await userIdOf(await accessOf(demoUser), user.username)}/role/`, { token: await accessOf(demoUser), body: { role: 'viewer' } });
    await signIn(page, user);
    const refresh = await page.evaluate(() => localStorage.getItem('stockwise.refreshToken'));
    expect(refresh).toBeTruthy();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    const reuse = await api('/api/token/refresh/', { body: { refresh } });
    expect(reuse.status).toBe(401);
  });

  it('changes the password on the profile, keeps this session, and signs in with the new one', async () => {
    const { page } = browser;
    const user = await registerUser(baseUrl());
    await signInAsNew(page, user);
    await page.goto('/profile');
    await page.getByTestId('sessions-table').waitFor();
    expect(await page.locator('[data-testid="session-row"][data-current]').count()).toBe(1);
    // The device in words, the browser's own header in the tooltip.
    const device = page.locator('[data-testid="session-row"][data-current] td').first().locator('p').first();
    expect(await device.textContent()).toMatch(/^(Headless )?Chrome \d+ on Linux$/);
    expect(await device.getAttribute('title')).toBe(await page.evaluate(() => navigator.userAgent));
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Current password').fill('not the password');
    await page.getByLabel('New password', { exact: true }).fill('a fresh long phrase 9');
    await page.getByLabel('Confirm new password').fill('a fresh long phrase 8');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The two new passwords differ.').waitFor();
    await page.getByLabel('Confirm new password').fill('a fresh long phrase 9');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is not correct.').waitFor();

    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByTestId('password-message').filter({ hasText: 'Password changed' }).waitFor();
    // Still signed in here.
    await page.reload();
    await page.getByTestId('sessions-table').waitFor();

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    expect((await api('/api/token/', { body: user })).status).toBe(401);
    await signInAsNew(page, { username: user.username, password: 'a fresh long phrase 9' });
    await page.getByTestId('awaiting-approval').waitFor();
  });
});
