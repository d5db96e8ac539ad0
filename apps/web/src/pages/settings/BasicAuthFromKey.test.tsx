// "Fill from a key and secret (HTTP Basic auth)" in the integration editor: a WooCommerce consumer
// key and secret written into the editor's auth header as `Authorization: Basic base64(key:secret)`
// (UTF-8), by keyboard (Enter fills, never submits the editor's form), the two fields cleared once
// used; a user name with a colon or an empty secret is refused in words.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { initTestI18n } from '../../test/i18n.ts';
import { renderInForm as renderWithForm } from '../../test/in-form.tsx';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { initialIntegrationsState, useIntegrationsStore } from '../../stores/integrations.ts';
import { basicAuthValue, newIntegrationDraft } from './integration-form.ts';
import { BasicAuthFromKey } from './BasicAuthFromKey.tsx';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

let submitted = 0;
beforeEach(() => {
  submitted = 0;
  useIntegrationsStore.setState({ ...initialIntegrationsState, editorOpen: true, draft: { ...newIntegrationDraft('shop', () => ['sales']), auth_header_name: 'X-Api-Key', auth_header_value: null } });
});

const renderInForm = () =>
  renderWithForm(<BasicAuthFromKey />, () => {
    submitted += 1;
  });

describe('basic auth from a key and secret', () => {
  it('encodes key:secret as UTF-8 base64 behind Basic', () => {
    expect(basicAuthValue('ck_wattle', 'cs_secret')).toBe(`Basic ${Buffer.from('ck_wattle:cs_secret').toString('base64')}`);
    expect(basicAuthValue('gärtner', 'pässwort')).toBe(`Basic ${Buffer.from('gärtner:pässwort', 'utf8').toString('base64')}`);
  });

  it('fills Authorization / Basic … into the draft with Enter, clears its fields and says so, without submitting the editor', () => {
    renderInForm();
    const open = screen.getByRole('button', { name: 'Fill from a key and secret (HTTP Basic auth)' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(open);
    expect(open.getAttribute('aria-expanded')).toBe('true');
    const key = screen.getByLabelText('Consumer key or user name') as HTMLInputElement;
    const secret = screen.getByLabelText('Consumer secret or password') as HTMLInputElement;
    fireEvent.change(key, { target: { value: ' ck_wattle ' } });
    fireEvent.change(secret, { target: { value: 'cs_secret' } });
    fireEvent.keyDown(secret, { key: 'Enter' });
    expect(submitted).toBe(0);
    expect(useIntegrationsStore.getState().draft).toMatchObject({ auth_header_name: 'Authorization', auth_header_value: `Basic ${Buffer.from('ck_wattle:cs_secret').toString('base64')}` });
    expect([key.value, secret.value]).toEqual(['', '']);
    expect(screen.getByRole('status').textContent).toBe('The Authorization header was filled from the key and secret. Save the integration to store it (encrypted).');
  });

  it('refuses a user name with a colon and an empty secret in words, the draft unchanged', () => {
    renderInForm();
    fireEvent.click(screen.getByRole('button', { name: 'Fill from a key and secret (HTTP Basic auth)' }));
    fireEvent.change(screen.getByLabelText('Consumer key or user name'), { target: { value: 'ck:wattle' } });
    fireEvent.change(screen.getByLabelText('Consumer secret or password'), { target: { value: 'cs_secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Fill the Authorization header' }));
    expect(screen.getByText('Enter the consumer key or user name (without a colon).')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Consumer key or user name'), { target: { value: 'ck_wattle' } });
    fireEvent.change(screen.getByLabelText('Consumer secret or password'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Fill the Authorization header' }));
    expect(screen.getByText('Enter the consumer secret or password.')).toBeTruthy();
    expect(useIntegrationsStore.getState().draft).toMatchObject({ auth_header_name: 'X-Api-Key', auth_header_value: null });
    expect(submitted).toBe(0);
  });
});
