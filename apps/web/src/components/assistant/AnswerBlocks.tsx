// An assistant answer's blocks (docs/api.md "Assistant"): text, a table (with totals and a CSV
// download), a link to the right screen, and an action confirmed with a button.
import { Anchor, Button, Stack, Table, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { assistantActionRequest, formatDay, isIsoDay, shortCategoryNames, toCsv, type AssistantActionRequest, type AssistantBlock } from '@stockwise/contract';
import { useAssistantStore } from '../../stores/assistant.ts';
import { useCan } from '../../stores/role.ts';
import { viewerToday } from '../../api/shop-day.ts';
import { downloadCsv } from '../save-file.ts';
import { orderByWords } from '../order-by.tsx';
import { useMoneyFormat } from '../money.ts';

type TableBlock = Extract<AssistantBlock, { type: 'table' }>;
type Cell = TableBlock['rows'][number][string];

// Figures as the screens show them (82,648.68; money with its pence and the shop's currency, $1,240.50), days as the
// answer's sentences write them (7 Dec 2026), an order-by day as the Forecasting screen's lists write it ("Now" once
// it has come), a category by its short name ("Office Furniture" for "All / Saleable / Office Furniture",
// the path in the cell's title); the CSV keeps them plain for a spreadsheet.
const figure = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
type Column = TableBlock['columns'][number];
type Shown = { day: boolean; money: Intl.NumberFormat; today: string; t: TFunction };
function shown(value: Cell | undefined, column: Column, { day, money, today, t }: Shown): string {
  if (typeof value === 'number') return (column.kind === 'money' ? money : figure).format(value);
  if (day && isIsoDay(value)) return column.kind === 'order_by' ? orderByWords(value, today, t) : formatDay(value);
  return value ?? '';
}

/** The orders an answer showed, from its action's payload; an answer from before they were carried asks for the current list. */
function createOrdersRequest(payload: Record<string, unknown>): AssistantActionRequest {
  const parsed = assistantActionRequest.safeParse({ action: 'create_recommended_orders', orders: payload['orders'] });
  return parsed.success ? parsed.data : { action: 'create_recommended_orders' };
}

function AnswerTable({ block }: { block: TableBlock }) {
  const { t } = useTranslation();
  const money = useMoneyFormat();
  const download = () => {
    const rows = [...block.rows, ...(block.totals ? [block.totals] : [])];
    downloadCsv(block.download ?? 'answer.csv', toCsv([block.columns.map((c) => c.label), ...rows.map((row) => block.columns.map((c) => row[c.key] ?? null))]));
  };
  const numeric = new Set(block.columns.filter((c) => block.rows.some((row) => typeof row[c.key] === 'number')).map((c) => c.key));
  // A column of days only (runs out, order by, expected): a code that merely looks like a day is left as it is.
  const days = new Set(block.columns.filter((c) => block.rows.some((row) => row[c.key] != null) && block.rows.every((row) => row[c.key] == null || isIsoDay(row[c.key]))).map((c) => c.key));
  const align = (key: string) => (numeric.has(key) ? 'right' : undefined);
  const today = viewerToday();
  const cell = (value: Cell | undefined, column: Column) => shown(value, column, { day: days.has(column.key), money, today, t });
  const categories = new Map(block.columns.filter((c) => c.kind === 'category').map((c) => [c.key, shortCategoryNames(block.rows.map((row) => row[c.key]).filter((value) => typeof value === 'string'))]));
  const bodyCell = (value: Cell | undefined, column: Column) => {
    const short = typeof value === 'string' ? categories.get(column.key)?.get(value) : undefined;
    return short && short !== value ? <span title={value as string}>{short}</span> : cell(value, column);
  };
  return (
    <div>
      <Table.ScrollContainer minWidth={400}>
        <Table striped withTableBorder fz="xs" data-testid="assistant-table">
          <Table.Thead>
            <Table.Tr>
              {block.columns.map((c) => (
                <Table.Th key={c.key} ta={align(c.key)}>
                  {c.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {block.rows.map((row, index) => (
              <Table.Tr key={index}>
                {block.columns.map((c) => (
                  <Table.Td key={c.key} ta={align(c.key)}>
                    {bodyCell(row[c.key], c)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
          {block.totals && (
            <Table.Tfoot>
              <Table.Tr>
                {block.columns.map((c) => (
                  <Table.Th key={c.key} ta={align(c.key)}>
                    {cell(block.totals?.[c.key], c)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Tfoot>
          )}
        </Table>
      </Table.ScrollContainer>
      {block.download && (
        <Button size="compact-xs" variant="default" mt={4} onClick={download}>
          {t('assistant.downloadCsv')}
        </Button>
      )}
    </div>
  );
}

/** `question`: what the answer answers; its links name it, so a list of the history's links tells them apart. */
export function AnswerBlocks({ blocks, question }: { blocks: AssistantBlock[]; question?: string }) {
  const { t } = useTranslation();
  const act = useAssistantStore((state) => state.act);
  // One request at a time: while a question is being answered an action would be ignored, so it waits, disabled.
  const answering = useAssistantStore((state) => state.isLoading);
  const canOrder = useCan('editor');
  return (
    <Stack gap={4} mt={2}>
      {blocks.map((block, index) => {
        switch (block.type) {
          case 'text':
            return (
              <Text key={index} size="sm">
                {block.text}
              </Text>
            );
          case 'table':
            return <AnswerTable key={index} block={block} />;
          case 'link':
            return (
              <Anchor key={index} component={Link} to={block.href} size="sm" c="blue.8" underline="always" aria-label={question ? t('assistant.linkFor', { label: block.label, question }) : undefined}>
                {block.label}
              </Anchor>
            );
          case 'action':
            if (block.action === 'create_recommended_orders' && !canOrder) return <Text key={index} size="xs" c="gray.7">{t('assistant.editorsOrder')}</Text>;
            return (
              <Button
                key={index}
                size="compact-sm"
                color="blue.8"
                style={{ alignSelf: 'flex-start' }}
                disabled={answering}
                onClick={() => act(block.action === 'add_task' ? { action: 'add_task', text: String(block.payload.text ?? '') } : createOrdersRequest(block.payload))}
                data-testid="assistant-action"
              >
                {block.label}
              </Button>
            );
        }
      })}
    </Stack>
  );
}
