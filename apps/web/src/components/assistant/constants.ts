// Assistant footer bar constants (spec §9).
export const collapsedHeight = '4rem';
export const expandedHeight = '24rem';
export const typingMsPerCharacter = 30;
export const glowAnimationSeconds = 4;
export const defaultContextPanels = ['inventory', 'chat-interface'] as const;

/** Pages where the assistant starts expanded (spec §2). */
export const startsExpandedOn: ReadonlySet<string> = new Set(['forecasting', 'reports']);
/** Pages where the collapsed bar is not shown (ADR 0004). */
export const withoutCollapsedBar: ReadonlySet<string> = new Set(['forecasting']);

export const quickPrompts = ['lowStock', 'reorder', 'deliveries'] as const;
export type QuickPrompt = (typeof quickPrompts)[number];
