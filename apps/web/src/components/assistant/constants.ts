// Assistant footer bar constants (spec §9).
export const collapsedHeight = '4rem';
export const expandedHeight = '24rem';
export const typingMsPerCharacter = 30;
export const glowAnimationSeconds = 4;
export const defaultContextPanels = ['inventory', 'chat-interface'] as const;

/** Pages where the assistant starts expanded (spec §2), except forecasting, where it would cover the chart (ADR 0070). */
export const startsExpandedOn: ReadonlySet<string> = new Set(['reports']);
/** Pages where the collapsed bar is not shown (ADR 0004). */
export const withoutCollapsedBar: ReadonlySet<string> = new Set(['forecasting']);

export const quickPrompts = ['lowStock', 'reorder', 'deliveries'] as const;
export type QuickPrompt = (typeof quickPrompts)[number];
/** The server's name of each quick button's question. */
export const quickActionOf = { lowStock: 'low_stock', reorder: 'reorder_report', deliveries: 'deliveries' } as const satisfies Record<QuickPrompt, string>;
