// Every migration, in order. Migrations are code (not files found at run time) so the same list
// runs on PGlite and PostgreSQL and a bundle cannot lose one.
import type { Migration } from 'kysely/migration';
import * as initial from './0001-initial.ts';
import * as dataCatalogue from './0002-data-catalogue.ts';
import * as trigramSearch from './0003-trigram-search.ts';
import * as forecasting from './0004-forecasting.ts';
import * as importLogs from './0005-import-logs.ts';
import * as roles from './0006-roles.ts';
import * as sessions from './0007-sessions.ts';
import * as signInThrottle from './0008-sign-in-throttle.ts';
import * as restrictProductDeletes from './0010-restrict-product-deletes.ts';
import * as realDataIn from './0020-real-data-in.ts';
import * as oneStockTruth from './0030-one-stock-truth.ts';
import * as reports from './0040-reports.ts';
import * as forecastRequests from './0050-forecast-requests.ts';
import * as integrations from './0060-integrations.ts';
import * as dashboard from './0070-dashboard.ts';
import * as dashboardTaskCounts from './0071-dashboard-task-counts.ts';
import * as configChangeNotifications from './0081-config-change-notifications.ts';
import * as forecastCalendar from './0090-forecast-calendar.ts';
import * as importIdCache from './0130-import-id-cache.ts';
import * as forecastText from './0140-forecast-text.ts';
import * as forecastAdviceFromWriter from './0150-forecast-advice-from-writer.ts';
import * as salesHistoryIndexOnly from './0160-sales-history-index-only.ts';
import * as catalogueRunAfterRunning from './0170-catalogue-run-after-running.ts';
import * as forecastInputsReadAt from './0180-forecast-inputs-read-at.ts';
import * as generatedTasksFollowTheirCondition from './0190-generated-tasks-follow-their-condition.ts';
import * as replaceDeletesOnlyRowsItCreated from './0200-replace-deletes-only-rows-it-created.ts';
import * as integrationsKeepTheDateOrderTheyLearnt from './0210-integrations-keep-the-date-order-they-learnt.ts';
import * as integrationsShowWhatTheirLastRunRejected from './0230-integrations-show-what-their-last-run-rejected.ts';
import * as productsWithoutAStockCount from './0250-products-without-a-stock-count.ts';
import * as startingPasswordsAreChangedFirst from './0280-starting-passwords-are-changed-first.ts';
import * as forecastRowsAsColumns from './0290-forecast-rows-as-columns.ts';
import * as replaceKeepsRowsDataRefersTo from './0300-replace-keeps-rows-data-refers-to.ts';
import * as integrationSchedulesInTheShopsTimeZone from './0310-integration-schedules-in-the-shops-time-zone.ts';
import * as productsListedAfterSales from './0320-products-listed-after-sales.ts';
import * as reorderAdviceFromTheForecastsFirstDay from './0330-reorder-advice-from-the-forecasts-first-day.ts';
import * as integrationRunsSayWhatTheyLeftOut from './0340-integration-runs-say-what-they-left-out.ts';
import * as integrationRunsCountLinesWithoutACode from './0350-integration-runs-count-lines-without-a-code.ts';
import * as integrationRunsSayWhyTheyWait from './0360-integration-runs-say-why-they-wait.ts';
import * as forecastsKeepWhatIsOnHand from './0370-forecasts-keep-what-is-on-hand.ts';
import * as salesFromSeveralSourcesAddUp from './0380-sales-from-several-sources-add-up.ts';
import * as theShopsCurrency from './0400-the-shops-currency.ts';
import * as salesPartsLeaveWithTheirDay from './0410-sales-parts-leave-with-their-day.ts';
import * as salesPartsIndexedOnlyForRuns from './0420-sales-parts-indexed-only-for-runs.ts';
import * as unitCostIsMoney from './0440-unit-cost-is-money.ts';
import * as failedRunsPutBackTheTotalsTheyReplaced from './0460-failed-runs-put-back-the-totals-they-replaced.ts';
import * as editsNameWhoChangedARow from './0470-edits-name-who-changed-a-row.ts';
import * as forecastRunsSayTheyRestarted from './0480-forecast-runs-say-they-restarted.ts';
import * as theShopsClosedDates from './0510-the-shops-closed-dates.ts';
import * as integrationSavesNameTheirVersion from './0520-integration-saves-name-their-version.ts';
import * as shopSavesNameTheirVersions from './0530-shop-saves-name-their-versions.ts';
import * as theShopsTimeZone from './0540-the-shops-time-zone.ts';
import * as entityConfigsNameTheirVersion from './0550-entity-configs-name-their-version.ts';
import * as peopleChooseTheirDateOrder from './0560-people-choose-their-date-order.ts';
import * as salesImportsCanBeUndone from './0570-sales-imports-can-be-undone.ts';
import * as stockCountImportsCanBeUndone from './0580-stock-count-imports-can-be-undone.ts';
import * as salesImportsKeepCreatedDaysAsRanges from './0600-sales-imports-keep-created-days-as-ranges.ts';
import * as quantitiesByWeightOrLength from './0620-quantities-by-weight-or-length.ts';
import * as productsHaveAUnit from './0630-products-have-a-unit.ts';
import * as entitiesFollowTheFileAgain from './0640-entities-follow-the-file-again.ts';
import * as productsHaveACaseSizeAndMinimumOrder from './0650-products-have-a-case-size-and-minimum-order.ts';
import * as growthPerUnit from './0660-growth-per-unit.ts';
import * as deliveriesKeyedOnceTheDaysAreSingle from './0670-deliveries-keyed-once-the-days-are-single.ts';
import * as productsHaveASupplier from './0680-products-have-a-supplier.ts';
import * as reorderAdviceNamesTheSupplierAndItsTerms from './0690-reorder-advice-names-the-supplier-and-its-terms.ts';
import * as forecastTasksOfAListOfProducts from './0710-forecast-tasks-of-a-list-of-products.ts';
import * as productsMadeHere from './0720-products-made-here.ts';
import * as stockCountedAfterSales from './0730-stock-counted-after-sales.ts';
import * as reorderAdviceSaysMadeHere from './0740-reorder-advice-says-made-here.ts';
import * as productsNotStocked from './0750-products-not-stocked.ts';
import * as savedKindColumnsCarryTheirValueMap from './0760-saved-kind-columns-carry-their-value-map.ts';

export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-data-catalogue': dataCatalogue,
  '0003-trigram-search': trigramSearch,
  '0004-forecasting': forecasting,
  '0005-import-logs': importLogs,
  '0006-roles': roles,
  '0007-sessions': sessions,
  '0008-sign-in-throttle': signInThrottle,
  '0010-restrict-product-deletes': restrictProductDeletes,
  '0020-real-data-in': realDataIn,
  '0030-one-stock-truth': oneStockTruth,
  '0040-reports': reports,
  '0050-forecast-requests': forecastRequests,
  '0060-integrations': integrations,
  '0070-dashboard': dashboard,
  '0071-dashboard-task-counts': dashboardTaskCounts,
  '0081-config-change-notifications': configChangeNotifications,
  '0090-forecast-calendar': forecastCalendar,
  '0130-import-id-cache': importIdCache,
  '0140-forecast-text': forecastText,
  '0150-forecast-advice-from-writer': forecastAdviceFromWriter,
  '0160-sales-history-index-only': salesHistoryIndexOnly,
  '0170-catalogue-run-after-running': catalogueRunAfterRunning,
  '0180-forecast-inputs-read-at': forecastInputsReadAt,
  '0190-generated-tasks-follow-their-condition': generatedTasksFollowTheirCondition,
  '0200-replace-deletes-only-rows-it-created': replaceDeletesOnlyRowsItCreated,
  '0210-integrations-keep-the-date-order-they-learnt': integrationsKeepTheDateOrderTheyLearnt,
  '0230-integrations-show-what-their-last-run-rejected': integrationsShowWhatTheirLastRunRejected,
  '0250-products-without-a-stock-count': productsWithoutAStockCount,
  '0280-starting-passwords-are-changed-first': startingPasswordsAreChangedFirst,
  '0290-forecast-rows-as-columns': forecastRowsAsColumns,
  '0300-replace-keeps-rows-data-refers-to': replaceKeepsRowsDataRefersTo,
  '0310-integration-schedules-in-the-shops-time-zone': integrationSchedulesInTheShopsTimeZone,
  '0320-products-listed-after-sales': productsListedAfterSales,
  '0330-reorder-advice-from-the-forecasts-first-day': reorderAdviceFromTheForecastsFirstDay,
  '0340-integration-runs-say-what-they-left-out': integrationRunsSayWhatTheyLeftOut,
  '0350-integration-runs-count-lines-without-a-code': integrationRunsCountLinesWithoutACode,
  '0360-integration-runs-say-why-they-wait': integrationRunsSayWhyTheyWait,
  '0370-forecasts-keep-what-is-on-hand': forecastsKeepWhatIsOnHand,
  '0380-sales-from-several-sources-add-up': salesFromSeveralSourcesAddUp,
  '0400-the-shops-currency': theShopsCurrency,
  '0410-sales-parts-leave-with-their-day': salesPartsLeaveWithTheirDay,
  '0420-sales-parts-indexed-only-for-runs': salesPartsIndexedOnlyForRuns,
  '0440-unit-cost-is-money': unitCostIsMoney,
  '0460-failed-runs-put-back-the-totals-they-replaced': failedRunsPutBackTheTotalsTheyReplaced,
  '0470-edits-name-who-changed-a-row': editsNameWhoChangedARow,
  '0480-forecast-runs-say-they-restarted': forecastRunsSayTheyRestarted,
  '0510-the-shops-closed-dates': theShopsClosedDates,
  '0520-integration-saves-name-their-version': integrationSavesNameTheirVersion,
  '0530-shop-saves-name-their-versions': shopSavesNameTheirVersions,
  '0540-the-shops-time-zone': theShopsTimeZone,
  '0550-entity-configs-name-their-version': entityConfigsNameTheirVersion,
  '0560-people-choose-their-date-order': peopleChooseTheirDateOrder,
  '0570-sales-imports-can-be-undone': salesImportsCanBeUndone,
  '0580-stock-count-imports-can-be-undone': stockCountImportsCanBeUndone,
  '0600-sales-imports-keep-created-days-as-ranges': salesImportsKeepCreatedDaysAsRanges,
  '0620-quantities-by-weight-or-length': quantitiesByWeightOrLength,
  '0630-products-have-a-unit': productsHaveAUnit,
  '0640-entities-follow-the-file-again': entitiesFollowTheFileAgain,
  '0650-products-have-a-case-size-and-minimum-order': productsHaveACaseSizeAndMinimumOrder,
  '0660-growth-per-unit': growthPerUnit,
  '0670-deliveries-keyed-once-the-days-are-single': deliveriesKeyedOnceTheDaysAreSingle,
  '0680-products-have-a-supplier': productsHaveASupplier,
  '0690-reorder-advice-names-the-supplier-and-its-terms': reorderAdviceNamesTheSupplierAndItsTerms,
  '0710-forecast-tasks-of-a-list-of-products': forecastTasksOfAListOfProducts,
  '0720-products-made-here': productsMadeHere,
  '0730-stock-counted-after-sales': stockCountedAfterSales,
  '0740-reorder-advice-says-made-here': reorderAdviceSaysMadeHere,
  '0750-products-not-stocked': productsNotStocked,
  '0760-saved-kind-columns-carry-their-value-map': savedKindColumnsCarryTheirValueMap,
};
