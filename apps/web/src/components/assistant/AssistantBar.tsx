// The assistant footer bar (spec §2) and, on the forecasting page, the assistant panel only
// (docs/adr/0004-assistant-on-forecasting.md).
import { useEffect, useRef, useState, type CSSProperties, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, CloseButton, Loader, Text, TextInput } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { useAssistantStore } from '../../stores/assistant.ts';
import { useUserId } from '../../stores/role.ts';
import { useSessionStore } from '../../stores/session.ts';
import { AnswerBlocks } from './AnswerBlocks.tsx';
import {
  collapsedHeight,
  expandedHeight,
  glowAnimationSeconds,
  quickActionOf,
  quickPrompts,
  withoutCollapsedBar,
} from './constants.ts';
import { useTypewriter } from './typing.ts';
import classes from './AssistantBar.module.css';

const sizeVariables = {
  '--assistant-collapsed-height': collapsedHeight,
  '--assistant-expanded-height': expandedHeight,
  '--assistant-glow-duration': `${glowAnimationSeconds}s`,
} as CSSProperties;

/** Room the page keeps free at its bottom so the bar (on forecasting, the button that reopens it) never covers content. */
export function assistantReservedHeight(expanded: boolean): string {
  return expanded ? expandedHeight : collapsedHeight;
}

export function AssistantBar() {
  const expanded = useAssistantStore((state) => state.expanded);
  const page = useAssistantStore((state) => state.context.page);
  const sessionReady = useSessionStore((state) => !state.isLoading && state.isLoggedIn);
  const userId = useUserId();
  // Spec §5: the history is fetched once the session has loaded; it is the signed-in user's own.
  useEffect(() => {
    if (sessionReady && userId !== null) void useAssistantStore.getState().loadHistory(userId);
  }, [sessionReady, userId]);
  if (expanded) return <AssistantPanel />;
  if (withoutCollapsedBar.has(page)) return <ReopenButton />;
  return <CollapsedBar page={page} />;
}

/** Gives the focus back to the control that reopens the assistant after the user closed it. */
function useFocusAfterClose<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const collapsedByUser = useAssistantStore((state) => state.collapsedByUser);
  useEffect(() => {
    if (collapsedByUser) ref.current?.focus();
  }, [collapsedByUser]);
  return ref;
}

function ReopenButton() {
  const { t } = useTranslation();
  const expand = useAssistantStore((state) => state.expand);
  const ref = useFocusAfterClose<HTMLButtonElement>();
  return (
    <Button ref={ref} className={classes.reopen} onClick={() => expand()} data-testid="assistant-reopen">
      {t('assistant.reopen')}
    </Button>
  );
}

function CollapsedBar({ page }: { page: string }) {
  const { t } = useTranslation();
  const expand = useAssistantStore((state) => state.expand);
  const askQuick = useAssistantStore((state) => state.quick);
  const openRef = useFocusAfterClose<HTMLButtonElement>();
  const prompt = t(`assistant.prompts.${page}`, { defaultValue: t('assistant.prompts.profile') });
  return (
    <aside
      className={`${classes.root} ${classes.collapsed}`}
      style={sizeVariables}
      aria-label={t('assistant.label')}
      data-testid="assistant-bar"
      data-state="collapsed"
    >
      <div className={classes.bar} data-testid="assistant-glow">
        <button ref={openRef} type="button" className={classes.promptButton} onClick={() => expand(prompt)} aria-label={t('assistant.openWith', { prompt })}>
          <TypedPrompt key={prompt} text={prompt} />
        </button>
        <div className={classes.quick} role="group" aria-label={t('assistant.quick.label')}>
          {quickPrompts.map((quick) => (
            <Button
              key={quick}
              size="xs"
              variant="light"
              onClick={() => {
                expand();
                askQuick(quickActionOf[quick]);
              }}
            >
              {t(`assistant.quick.${quick}`)}
            </Button>
          ))}
        </div>
      </div>
    </aside>
  );
}

function TypedPrompt({ text }: { text: string }) {
  const typed = useTypewriter(text);
  return (
    <span className={classes.prompt} aria-hidden="true" data-testid="assistant-prompt" data-complete={typed === text}>
      {typed}
      <span className={classes.caret} />
    </span>
  );
}

function AssistantPanel() {
  const { t } = useTranslation();
  const messages = useAssistantStore((state) => state.messages);
  const context = useAssistantStore((state) => state.context);
  const expandedByUser = useAssistantStore((state) => state.expandedByUser);
  const collapse = useAssistantStore((state) => state.collapse);
  const send = useAssistantStore((state) => state.send);
  const togglePanel = useAssistantStore((state) => state.togglePanel);
  const isLoading = useAssistantStore((state) => state.isLoading);
  const error = useAssistantStore((state) => state.error);
  // The suggested question the bar showed starts in the input, selected: Enter asks it, typing replaces it.
  const [draft, setDraft] = useState(() => useAssistantStore.getState().suggestion);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const panelRef = useRef<HTMLElement>(null);

  // Escape closes the panel when it is the panel's (or nobody's): an Escape in the page closes what
  // the page has open (a dialog, the SQL editor's completions), not the assistant as well.
  useWindowEvent('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const target = event.target;
    const inPage = target instanceof Node && target !== target.ownerDocument?.body && !panelRef.current?.contains(target);
    if (!inPage) collapse();
  });

  useEffect(() => {
    if (!expandedByUser) return;
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [expandedByUser]);

  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages.length]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (send(draft)) setDraft('');
  };

  return (
    <section
      ref={panelRef}
      className={`${classes.root} ${classes.expanded}`}
      style={sizeVariables}
      aria-label={t('assistant.label')}
      data-testid="assistant-panel"
      data-state="expanded"
    >
      <div className={classes.header}>
        <span className={classes.headerTitle}>{t('assistant.label')}</span>
        <span className={classes.context} data-testid="assistant-context">
          {t('assistant.context', { page: context.page, path: context.path })}
        </span>
        <div className={classes.panels} role="group" aria-label={t('assistant.panels')}>
          {Object.entries(context.panels).map(([panel, open]) => (
            <Button
              key={panel}
              size="compact-xs"
              variant={open ? 'light' : 'default'}
              aria-pressed={open}
              onClick={() => togglePanel(panel)}
            >
              {panel}
            </Button>
          ))}
        </div>
        <CloseButton aria-label={t('assistant.close')} onClick={collapse} />
      </div>
      {/* A tab stop of its own: a long answer scrolls the list, and the arrow keys scroll it back (QA8 F21). */}
      <ol className={classes.messages} ref={listRef} aria-label={t('assistant.messagesLabel')} aria-live="polite" tabIndex={0}>
        {messages.length === 0 ? (
          <li className={classes.context}>{t('assistant.empty')}</li>
        ) : (
          messages.map((message, at) => (
            <li key={message.id} className={classes.message} data-role={message.role} data-testid="assistant-message">
              <span className={classes.role}>{message.role === 'user' ? t('assistant.you') : t('assistant.bot')}</span>
              {message.role === 'user' || message.blocks.length === 0 ? message.content : <AnswerBlocks blocks={message.blocks} question={questionBefore(messages, at)} />}
            </li>
          ))
        )}
        {isLoading && (
          <li className={classes.context}>
            <Loader size="xs" role="status" aria-label={t('assistant.thinking')} />
          </li>
        )}
        {error && (
          <li>
            <Text c="red.8" size="sm" role="alert">
              {error}
            </Text>
          </li>
        )}
      </ol>
      <form className={classes.form} onSubmit={onSubmit}>
        <TextInput
          ref={inputRef}
          style={{ flex: 1 }}
          aria-label={t('assistant.inputLabel')}
          placeholder={t('assistant.placeholder')}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          autoComplete="off"
        />
        <Button type="submit" color="blue.8">
          {t('assistant.send')}
        </Button>
      </form>
    </section>
  );
}

/** The user's message an answer replies to: the nearest before it. */
function questionBefore(messages: readonly { role: string; content: string }[], at: number): string | undefined {
  for (let i = at - 1; i >= 0; i--) if (messages[i]?.role === 'user') return messages[i]?.content;
  return undefined;
}
