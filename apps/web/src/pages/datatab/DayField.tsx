// The row form's date field: typed in the viewer's pattern (ADR 0161 amendment 2026-12-04, ADR 0167),
// with a calendar button beside it. Mantine's own DatePicker (@mantine/dates) is not among the app's packages, so
// the month is laid out here, on Mantine's Popover.
import { useEffect, useRef, useState, type ComponentProps, type KeyboardEvent } from 'react';
import { ActionIcon, Group, Popover, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dayInPattern, formatDay, type DayPattern } from '@stockwise/contract';
import { addMonths, dayOfText, monthWeeks, movedDay } from './day-picker.ts';
import { FieldIcon } from './FieldIcon.tsx';
import classes from './DataPage.module.css';

const monthTitle = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const weekdayName = new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' });
// 5–11 Jan 2026 is a Monday-to-Sunday week: the calendar's column heads.
const WEEKDAYS = Array.from({ length: 7 }, (_, i) => weekdayName.format(new Date(Date.UTC(2026, 0, 5 + i))));
const todayOf = (now: Date) => `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

// The dialog around the field closes on Escape from any element not marked so: Escape in the calendar closes the calendar alone.
const keepsEscape = { 'data-mantine-stop-propagation': 'true' } as const;

type MonthProps = { chosen: string | null; start: string; onPick: (day: string) => void };

/** One month's days as a grid of buttons: the arrow keys move between days (and months), Enter or a click picks one. */
function Month({ chosen, start, onPick }: MonthProps) {
  const { t } = useTranslation();
  const [focused, setFocused] = useState(start);
  const grid = useRef<HTMLTableElement>(null);
  const moved = useRef(false);
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
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('datatab.rowForm.previousMonth')} onClick={() => move(addMonths(focused, -1))} {...keepsEscape}>
          ‹
        </ActionIcon>
        <Text size="sm" fw={600} aria-live="polite" data-testid="calendar-month">
          {month}
        </Text>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('datatab.rowForm.nextMonth')} onClick={() => move(addMonths(focused, 1))} {...keepsEscape}>
          ›
        </ActionIcon>
      </Group>
      <table ref={grid} className={classes.calendar} onKeyDown={onKeyDown}>
        <caption className={classes.visuallyHidden}>{month}</caption>
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
                <td key={day ?? `blank-${at}`}>
                  {day ? (
                    <UnstyledButton
                      className={classes.calendarDay}
                      data-day={day}
                      data-chosen={day === chosen || undefined}
                      aria-label={formatDay(day)}
                      aria-pressed={day === chosen}
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

type DayFieldProps = Omit<ComponentProps<typeof TextInput>, 'value' | 'onChange' | 'rightSection' | 'placeholder' | 'pattern'> & {
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** How the viewer writes a day (`MM/DD/YYYY`): the placeholder, and how a picked day is written. */
  pattern: DayPattern;
};

/** A date typed as the viewer writes one, or picked from the calendar (written the same way). */
export function DayField({ label, value, onChange, pattern, ...input }: DayFieldProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const chosen = dayOfText(value);
  const pick = (day: string) => {
    onChange(dayInPattern(day, pattern));
    setOpened(false);
  };
  const calendarButton = (
    <Popover opened={opened} onChange={setOpened} trapFocus returnFocus position="bottom-end" shadow="md" withRoles={false}>
      <Popover.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={t('datatab.rowForm.pickDate', { label })} aria-expanded={opened} aria-haspopup="dialog" onClick={() => setOpened((open) => !open)}>
          <FieldIcon shape="calendar" />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-label={t('datatab.rowForm.calendar', { label })} data-testid="day-calendar">
        <Month chosen={chosen} start={chosen ?? todayOf(new Date())} onPick={pick} />
      </Popover.Dropdown>
    </Popover>
  );
  return <TextInput {...input} label={label} placeholder={pattern} inputMode="numeric" value={value} onChange={(e) => onChange(e.currentTarget.value)} rightSection={calendarButton} rightSectionPointerEvents="all" />;
}
