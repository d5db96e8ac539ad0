// The assistant footer bar (spec §2, §3): expanded or collapsed, the conversation, and the context
// (current page and open panels). Replies are canned placeholders; no backend call for chat exists.
import { create } from 'zustand';
import { defaultContextPanels, startsExpandedOn } from '../components/assistant/constants.ts';
import { i18n } from '../i18n.ts';

export type ChatMessage = { role: 'user' | 'assistant'; content: string; timestamp: string };

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
};

export type AssistantActions = {
  enterPage: (page: string) => void;
  expand: () => void;
  collapse: () => void;
  togglePanel: (panel: string) => void;
  /** Sends a message; blank text is ignored. Returns whether it was sent. */
  send: (text: string) => boolean;
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
};

export const useAssistantStore = create<AssistantState & AssistantActions>()((set, get) => ({
  ...initialAssistantState,

  enterPage: (page) =>
    set((state) => ({
      expanded: startsExpandedOn.has(page),
      expandedByUser: false,
      collapsedByUser: false,
      context: { ...state.context, page, path: `/${page}` },
    })),

  expand: () => set({ expanded: true, expandedByUser: true, collapsedByUser: false }),

  collapse: () => set((state) => (state.expanded ? { expanded: false, expandedByUser: false, collapsedByUser: true } : {})),

  togglePanel: (panel) =>
    set((state) => ({ context: { ...state.context, panels: { ...state.context.panels, [panel]: !state.context.panels[panel] } } })),

  send: (text) => {
    if (!isSendable(text) || get().isLoading) return false;
    set({ isLoading: true, error: null });
    const content = text.trim();
    const now = new Date().toISOString();
    const question: ChatMessage = { role: 'user', content, timestamp: now };
    const reply: ChatMessage = { role: 'assistant', content: i18n.t('assistant.reply', { question: content }), timestamp: now };
    set((state) => ({ messages: [...state.messages, question, reply], isLoading: false }));
    return true;
  },
}));
