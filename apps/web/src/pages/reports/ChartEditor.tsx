// The chart picker: type, x axis, value columns, split-by column, stacking and title, or a chart
// proposed from the result's column types.
import { Button, Checkbox, Group, NativeSelect, Switch, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { chartTypes, proposeChartConfig, type ChartConfig, type ChartType, type ResultColumn } from '@stockwise/contract';

type ChartEditorProps = { config: ChartConfig | null; columns: ResultColumn[]; rowCount: number; disabled: boolean; onChange: (config: ChartConfig) => void };

export function ChartEditor({ config, columns, rowCount, disabled, onChange }: ChartEditorProps) {
  const { t } = useTranslation();
  const current = config ?? proposeChartConfig(columns, { rowCount });
  const none = { value: '', label: t('reports.chart.none') };
  const columnOptions = columns.map((column) => ({ value: column.name, label: column.name }));
  const numeric = columns.filter((column) => column.type === 'number');
  const change = (changes: Partial<ChartConfig>) => onChange({ ...current, ...changes });
  const toggleSeries = (field: string, on: boolean) =>
    change({ series: on ? [...current.series.filter((s) => s.field !== field), { field }] : current.series.filter((s) => s.field !== field) });
  const moneyFields = current.money_fields ?? [];

  return (
    <Group align="flex-end" gap="md" wrap="wrap" data-testid="chart-editor">
      <NativeSelect
        label={t('reports.chart.type')}
        value={current.type}
        disabled={disabled}
        data={chartTypes.map((type) => ({ value: type, label: t(`reports.chart.types.${type}`) }))}
        onChange={(event) => {
          const type = event.currentTarget.value as ChartType;
          onChange(config ? { ...current, type } : proposeChartConfig(columns, { rowCount, preferredType: type }));
        }}
      />
      <NativeSelect label={t('reports.chart.x')} value={current.x_field ?? ''} disabled={disabled} data={[none, ...columnOptions]} onChange={(event) => change({ x_field: event.currentTarget.value || null })} />
      <Checkbox.Group label={t('reports.chart.series')} value={current.series.map((s) => s.field)}>
        <Group gap="xs" mt={4}>
          {numeric.map((column) => (
            <Checkbox key={column.name} value={column.name} label={column.name} disabled={disabled} onChange={(event) => toggleSeries(column.name, event.currentTarget.checked)} />
          ))}
        </Group>
      </Checkbox.Group>
      <Checkbox.Group label={t('reports.chart.money')} description={t('reports.chart.moneyHint')} value={moneyFields} onChange={(fields) => change({ money_fields: numeric.map((column) => column.name).filter((name) => fields.includes(name)) })}>
        <Group gap="xs" mt={4}>
          {numeric.map((column) => (
            <Checkbox key={column.name} value={column.name} label={column.name} disabled={disabled} />
          ))}
        </Group>
      </Checkbox.Group>
      <NativeSelect label={t('reports.chart.group')} value={current.group_field ?? ''} disabled={disabled} data={[none, ...columnOptions]} onChange={(event) => change({ group_field: event.currentTarget.value || null })} />
      <Switch label={t('reports.chart.stacked')} checked={current.stacked} disabled={disabled} onChange={(event) => change({ stacked: event.currentTarget.checked })} />
      <TextInput label={t('reports.chart.titleLabel')} value={current.title} disabled={disabled} onChange={(event) => change({ title: event.currentTarget.value })} />
      <Button color="blue.8" variant="outline" disabled={disabled || columns.length === 0} onClick={() => onChange(proposeChartConfig(columns, { rowCount }))}>
        {t('reports.chart.propose')}
      </Button>
    </Group>
  );
}
