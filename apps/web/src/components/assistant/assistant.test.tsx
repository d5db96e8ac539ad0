import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import { typedLength, useTypewriter } from './typing.ts';
import { AssistantBar } from './AssistantBar.tsx';
import { collapsedHeight, expandedHeight, glowAnimationSeconds, typingMsPerCharacter } from './constants.ts';
import { initialAssistantState, isSendable, useAssistantStore } from '../../stores/assistant.ts';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});

beforeEach(() => useAssistantStore.setState(initialAssistantState));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('typing', () => {
  it('uses the spec constants', () => {
    expect([typingMsPerCharacter, collapsedHeight, expandedHeight, glowAnimationSeconds]).toEqual([30, '4rem', '24rem', 4]);
  });

  it('shows one character per 30 ms, up to the whole text', () => {
    expect(typedLength(0, 10)).toBe(0);
    expect(typedLength(29, 10)).toBe(0);
    expect(typedLength(30, 10)).toBe(1);
    expect(typedLength(95, 10)).toBe(3);
    expect(typedLength(10_000, 10)).toBe(10);
  });

  it('types a text out over time', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useTypewriter('Hello'));
    expect(result.current).toBe('');
    act(() => vi.advanceTimersByTime(60));
    expect(result.current).toBe('He');
    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current).toBe('Hello');
  });
});

describe('assistant store', () => {
  it('ignores blank messages', () => {
    expect(isSendable('')).toBe(false);
    expect(isSendable('  \n\t')).toBe(false);
    expect(useAssistantStore.getState().send('   ')).toBe(false);
    expect(useAssistantStore.getState().messages).toEqual([]);
  });

  it('sends trimmed text to the server and waits for the answer', () => {
    expect(useAssistantStore.getState().send('  Show low stock ')).toBe(true);
    expect(useAssistantStore.getState().isLoading).toBe(true);
    // One question at a time: a second one while the first is answered is not sent.
    expect(useAssistantStore.getState().send('Deliveries')).toBe(false);
  });

  it('names the page in its context and opens inventory and chat-interface by default', () => {
    useAssistantStore.getState().enterPage('forecasting');
    expect(useAssistantStore.getState().context).toEqual({
      page: 'forecasting',
      path: '/forecasting',
      panels: { inventory: true, 'chat-interface': true },
    });
  });

  it.each([
    ['forecasting', false],
    ['reports', true],
    ['home', false],
    ['datatab', false],
    ['settings', false],
    ['profile', false],
  ])('on %s starts expanded: %s', (page, expanded) => {
    useAssistantStore.getState().enterPage(page);
    expect(useAssistantStore.getState().expanded).toBe(expanded);
  });
});

function renderBar() {
  return render(
    <MantineProvider>
      <AssistantBar />
    </MantineProvider>,
  );
}

describe('AssistantBar', () => {
  it('collapsed: types the page prompt and offers three quick questions', () => {
    vi.useFakeTimers();
    useAssistantStore.getState().enterPage('home');
    renderBar();
    expect(screen.getByTestId('assistant-bar').dataset['state']).toBe('collapsed');
    for (const label of ['Show low stock', 'Reorder report', 'Deliveries']) expect(screen.getByRole('button', { name: label })).toBeTruthy();
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByTestId('assistant-prompt').textContent).toBe('What needs an order this week?');
  });

  it('the prompt opens the panel with its question ready in the input, selected', () => {
    useAssistantStore.getState().enterPage('settings');
    renderBar();
    // Its name starts with the words it shows (WCAG 2.5.3: a speech user says what they see).
    fireEvent.click(screen.getByRole('button', { name: 'How many units did we sell last month? (open the assistant)' }));
    const input = screen.getByPlaceholderText('Type your message...') as HTMLInputElement;
    expect(input.value).toBe('How many units did we sell last month?');
    expect(document.activeElement).toBe(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, input.value.length]);
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    expect(useAssistantStore.getState().isLoading).toBe(true);
  });

  it('a quick question expands the panel and asks the server', () => {
    useAssistantStore.getState().enterPage('home');
    renderBar();
    fireEvent.click(screen.getByRole('button', { name: 'Reorder report' }));
    expect(screen.getByTestId('assistant-panel')).toBeTruthy();
    expect(useAssistantStore.getState().isLoading).toBe(true);
  });

  it('the conversation is a named tab stop, so a keyboard scrolls back through a long answer (QA8 F21)', () => {
    useAssistantStore.getState().enterPage('home');
    renderBar();
    fireEvent.click(screen.getByRole('button', { name: 'Reorder report' }));
    const conversation = screen.getByRole('list', { name: 'Conversation' });
    expect(conversation.tabIndex).toBe(0);
  });

  it('expanded: ignores a blank submit, sends text, closes with Escape', () => {
    useAssistantStore.getState().enterPage('reports');
    renderBar();
    const input = screen.getByPlaceholderText('Type your message...');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.queryAllByTestId('assistant-message')).toHaveLength(0);
    fireEvent.change(input, { target: { value: 'Deliveries this week?' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    expect(useAssistantStore.getState().isLoading).toBe(true);
    expect((input as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('assistant-context').textContent).toBe('Context: reports (/reports)');
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.getByTestId('assistant-bar')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /\(open the assistant\)$/ }));
  });

  it("names each answer's links after the question they answer, so the history's links differ in a list of links", () => {
    useAssistantStore.getState().enterPage('reports');
    const link = { type: 'link' as const, label: 'Open the sales table', href: '/app/data?table=sales' };
    const exchange = (id: number, question: string) => [
      { id, role: 'user' as const, content: question, timestamp: '2026-12-05T02:00:00Z', blocks: [] },
      { id: id + 1, role: 'assistant' as const, content: '', timestamp: '2026-12-05T02:00:01Z', blocks: [{ type: 'text' as const, text: 'Some units were sold.' }, link] },
    ];
    useAssistantStore.setState({ messages: [...exchange(1, 'sales last week'), ...exchange(3, 'sales on Boxing Day')] });
    render(
      <MantineProvider>
        <MemoryRouter>
          <AssistantBar />
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(screen.getAllByRole('link').map((anchor) => anchor.getAttribute('aria-label'))).toEqual([
      'Open the sales table, for “sales last week”',
      'Open the sales table, for “sales on Boxing Day”',
    ]);
  });

  it("leaves an Escape in the page to the page (a dialog, the editor's completions): only one in the panel or nowhere closes it", () => {
    useAssistantStore.getState().enterPage('reports');
    render(
      <MantineProvider>
        <button type="button">Delete</button>
        <AssistantBar />
      </MantineProvider>,
    );
    fireEvent.keyDown(screen.getByRole('button', { name: 'Delete' }), { key: 'Escape' });
    expect(screen.getByTestId('assistant-panel')).toBeTruthy();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByTestId('assistant-panel')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /\(open the assistant\)$/ }));
    fireEvent.keyDown(screen.getByPlaceholderText('Type your message...'), { key: 'Escape' });
    expect(screen.queryByTestId('assistant-panel')).toBeNull();
  });

  it('on forecasting starts as a button that opens the panel, so the chart stays visible', () => {
    useAssistantStore.getState().enterPage('forecasting');
    renderBar();
    expect(screen.queryByTestId('assistant-panel')).toBeNull();
    expect(screen.queryByTestId('assistant-bar')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Ask the assistant' }));
    expect(screen.getByTestId('assistant-panel')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close the assistant' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Ask the assistant' }));
  });
});
