// The assistant footer bar (spec §2, §3): expanded or collapsed, the conversation (the user's own
// history, kept by the server), and the context (current page and open panels) sent with each
// question. Answers are structured blocks (docs/api.md "Assistant").
import { create } from 'zustand';
import type { AssistantActionRequest, ChatMessage, QuickAction } from '@stockwise/contract';
import { defaultContextPanels, startsExpandedOn } from '../components/assistant/constants.ts';
import * as assistantApi from '../api/dashboard.ts';
import { browserTimeZone } from '../api/import.ts';
import { normalizeError } from '../api/errors.ts';
import { i18n } from '../i18n.ts';
import { useSessionStore } from './session.ts';

export type { ChatMessage };

export type AssistantContext = {
  /** The shell page, e.g. 'forecasting'. */
  page: string;
  /** The page's path as the assistant names it, e.g. '/forecasting'. */
  path: string;
  /** Context panels and whether each is open. */
  panels: Record<string, boolean>;
};

export type AssistantState = {
  expanded: boolean;
  /** Expanded by the user (then the input takes the focus), not by the page's default. */
  expandedByUser: boolean;
  /** Closed by the user (then the control that reopens it takes the focus). */
  collapsedByUser: boolean;
  messages: ChatMessage[];
  context: AssistantContext;
  isLoading: boolean;
  error: string | null;
  /** Whose history the conversation holds (another user signing in starts from theirs). */
  historyOf: number | null;
  /** The page's suggested question the panel opened with, ready in the input ('' for none). */
  suggestion: string;
};

export type AssistantActions = {
  enterPage: (page: string) => void;
  /** Opens the panel; with the page's suggested question, the input starts with it. */
  expand: (suggestion?: string) => void;
  collapse: () => void;
  togglePanel: (panel: string) => void;
  /** Sends a message; blank text is ignored. Returns whether it was sent. */
  send: (text: string) => boolean;
  quick: (quick: QuickAction) => void;
  act: (action: AssistantActionRequest) => void;
  loadHistory: (userId: number) => Promise<void>;
};

export function isSendable(text: string): boolean {
  return text.trim().length > 0;
}

function openPanels(): Record<string, boolean> {
  return Object.fromEntries(defaultContextPanels.map((panel) => [panel, true]));
}

export const initialAssistantState: AssistantState = {
  expanded: false,
  expandedByUser: false,
  collapsedByUser: false,
  messages: [],
  context: { page: 'home', path: '/home', panels: openPanels() },
  isLoading: false,
  error: null,
  historyOf: null,
  suggestion: '',
};

const sessionReady = () => {
  const session = useSessionStore.getState();
  return !session.isLoading && session.isLoggedIn;
};

export const useAssistantStore = create<AssistantState & AssistantActions>()((set, get) => {
  /** One request at a time; its answer (the question and the reply as stored) joins the conversation. */
  const run = (call: () => Promise<ChatMessage[]>) => {
    set({ isLoading: true, error: null });
    call().then(
      (messages) => set((state) => ({ messages: [...state.messages, ...messages], isLoading: false })),
      (error: unknown) => {
        console.warn(`${i18n.t('assistant.errors.ask')}: ${normalizeError(error).message}`);
        set({ isLoading: false, error: i18n.t('assistant.errors.ask') });
      },
    );
  };
  const pageContext = () => ({ page: get().context.page, path: get().context.path });

  return {
    ...initialAssistantState,

    enterPage: (page) =>
      set((state) => ({
        expanded: startsExpandedOn.has(page),
        expandedByUser: false,
        collapsedByUser: false,
        suggestion: '',
        context: { ...state.context, page, path: `/${page}` },
      })),

    expand: (suggestion = '') => set({ expanded: true, expandedByUser: true, collapsedByUser: false, suggestion }),

    collapse: () => set((state) => (state.expanded ? { expanded: false, expandedByUser: false, collapsedByUser: true } : {})),

    togglePanel: (panel) =>
      set((state) => ({ context: { ...state.context, panels: { ...state.context.panels, [panel]: !state.context.panels[panel] } } })),

    send: (text) => {
      if (!isSendable(text) || get().isLoading) return false;
      const content = text.trim();
      run(() => assistantApi.askAssistant({ content, context: pageContext(), time_zone: browserTimeZone() }));
      return true;
    },

    quick: (quick) => {
      if (get().isLoading) return;
      run(() => assistantApi.askAssistant({ content: '', quick, context: pageContext(), time_zone: browserTimeZone() }));
    },

    act: (action) => {
      if (get().isLoading) return;
      run(() => assistantApi.runAssistantAction(action));
    },

    loadHistory: async (userId) => {
      if (!sessionReady() || get().historyOf === userId) return;
      set({ historyOf: userId, messages: [] });
      try {
        const history = await assistantApi.fetchAssistantHistory();
        set((state) => ({ messages: [...history, ...state.messages.filter((m) => !history.some((h) => h.id === m.id))] }));
      } catch (error) {
        set({ historyOf: null });
        console.warn(`${i18n.t('assistant.errors.history')}: ${normalizeError(error).message}`);
      }
    },
  };
});
