// A date field typed in the viewer's pattern (ADR 0161 amendment 2026-12-04, ADR 0167), with a
// calendar button beside it: the Data screen's row form and Settings → Shop's closed days (ADR
// 0171's amendment "a date picker"). Mantine's own DatePicker (@mantine/dates) is not among the
// app's packages, so the month is laid out here, on Mantine's Popover: a grid of day buttons, one in
// the tab order (the arrow keys move it), each named by its full date. A picked day is written into
// the field as the viewer types one; typing stays the quickest way in.
import { useEffect, useId, useRef, useState, type ComponentProps, type KeyboardEvent, type Ref } from 'react';
import { ActionIcon, Group, Popover, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { dayInPattern, type DateOrder, type DayPattern } from '@stockwise/contract';
import { addMonths, dayOfText, fullDay, monthWeeks, movedDay } from './day-picker.ts';
import { FieldIcon } from '../FieldIcon.tsx';
import classes from './DayField.module.css';

const monthTitle = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const weekdayName = new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' });
// 5–11 Jan 2026 is a Monday-to-Sunday week: the calendar's column heads.
const WEEKDAYS = Array.from({ length: 7 }, (_, i) => weekdayName.format(new Date(Date.UTC(2026, 0, 5 + i))));
const browserToday = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

// A dialog around the field closes on Escape from any element not marked so: Escape in the calendar closes the calendar alone.
const keepsEscape = { 'data-mantine-stop-propagation': 'true' } as const;

type MonthProps = { chosen: string | null; start: string; today: string; onPick: (day: string) => void };

/** One month's days as a grid of buttons: the arrow keys move between days (and months), Enter or a click picks one. */
function Month({ chosen, start, today, onPick }: MonthProps) {
  const { t } = useTranslation();
  const [focused, setFocused] = useState(start);
  const grid = useRef<HTMLTableElement>(null);
  const moved = useRef(false);
  const titleId = useId();
  useEffect(() => {
    // Focus follows the keys, not the first render (the popover puts it on the data-autofocus day).
    if (moved.current) grid.current?.querySelector<HTMLButtonElement>(`[data-day="${focused}"]`)?.focus();
  }, [focused]);
  const move = (day: string) => {
    moved.current = true;
    setFocused(day);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const next = movedDay(focused, event.key);
    if (next === null) return;
    event.preventDefault();
    move(next);
  };
  const month = monthTitle.format(new Date(`${focused.slice(0, 7)}-01T00:00:00Z`));
  return (
    <div>
      <Group justify="space-between" mb={4} wrap="nowrap">
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('dayField.previousMonth')} onClick={() => move(addMonths(focused, -1))} {...keepsEscape}>
          ‹
        </ActionIcon>
        <Text size="sm" fw={600} id={titleId} aria-live="polite" data-testid="calendar-month">
          {month}
        </Text>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('dayField.nextMonth')} onClick={() => move(addMonths(focused, 1))} {...keepsEscape}>
          ›
        </ActionIcon>
      </Group>
      <table ref={grid} role="grid" aria-labelledby={titleId} className={classes.calendar} onKeyDown={onKeyDown}>
        <VisuallyHidden component="caption">{month}</VisuallyHidden>
        <thead>
          <tr>
            {WEEKDAYS.map((name) => (
              <th key={name} scope="col" abbr={name}>
                {name.slice(0, 2)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(focused).map((week) => (
            <tr key={week.find(Boolean)}>
              {week.map((day, at) => (
                <td key={day ?? `blank-${at}`} aria-selected={day ? day === chosen : undefined}>
                  {day ? (
                    <UnstyledButton
                      className={classes.calendarDay}
                      data-day={day}
                      data-chosen={day === chosen || undefined}
                      aria-label={fullDay(day)}
                      aria-pressed={day === chosen}
                      aria-current={day === today ? 'date' : undefined}
                      tabIndex={day === focused ? 0 : -1}
                      data-autofocus={day === focused || undefined}
                      onClick={() => onPick(day)}
                      {...keepsEscape}
                    >
                      {Number(day.slice(8))}
                    </UnstyledButton>
                  ) : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type DayFieldProps = Omit<ComponentProps<typeof TextInput>, 'value' | 'onChange' | 'rightSection' | 'pattern' | 'ref'> & {
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** How the viewer's typed days are read (the calendar opens on the day typed). */
  order: DateOrder;
  /** How the viewer writes a day (`MM/DD/YYYY`): how a picked day is written, and the placeholder unless another is given. */
  pattern: DayPattern;
  /** The day ringed as today, and where the calendar opens on an empty field (ISO; this browser's day unless given — the shop's, on the shop's screens). */
  today?: string;
  /** Where the calendar opens while the field names no day, before today (a "To" field: its "From" day). */
  opensOn?: string | null;
  ref?: Ref<HTMLInputElement>;
};

/** A date typed as the viewer writes one, or picked from the calendar (written the same way); Alt+↓ in the field opens the calendar. */
export function DayField({ label, value, onChange, order, pattern, today, opensOn, ref, placeholder, ...input }: DayFieldProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const fieldRef = useMergedRef(field, ref);
  const chosen = dayOfText(value, order);
  const todayHere = today ?? browserToday();
  // Picked or left with Escape: back to the field, to type on or Tab onwards (a click outside leaves the focus where it went).
  const close = () => {
    setOpened(false);
    field.current?.focus();
  };
  const pick = (day: string) => {
    onChange(dayInPattern(day, pattern));
    close();
  };
  const calendarButton = (
    <Popover opened={opened} onChange={setOpened} trapFocus closeOnEscape={false} position="bottom-end" shadow="md" withRoles={false}>
      <Popover.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={t('dayField.pickDate', { label })} aria-expanded={opened} aria-haspopup="dialog" onClick={() => setOpened((open) => !open)}>
          <FieldIcon shape="calendar" />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown
        role="dialog"
        aria-label={t('dayField.calendar', { label })}
        data-testid="day-calendar"
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          event.preventDefault();
          close();
        }}
      >
        <Month chosen={chosen} start={chosen ?? opensOn ?? todayHere} today={todayHere} onPick={pick} />
      </Popover.Dropdown>
    </Popover>
  );
  return (
    <TextInput
      {...input}
      ref={fieldRef}
      label={label}
      placeholder={placeholder ?? pattern}
      inputMode="numeric"
      aria-keyshortcuts="Alt+ArrowDown"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onKeyDown={(event) => {
        input.onKeyDown?.(event);
        if (event.altKey && event.key === 'ArrowDown') {
          event.preventDefault();
          setOpened(true);
        }
      }}
      rightSection={calendarButton}
      rightSectionPointerEvents="all"
    />
  );
}
