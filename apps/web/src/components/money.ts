// Money on the screens in the shop's currency (ADR 0166): the rules are the contract's `moneyFormat`,
// which the server's sentences write with too; these hooks give a component the shop's currency.
import { moneyFormat, type MoneyOptions } from '@stockwise/contract';
import { useShopStore } from '../stores/shop.ts';

/** The shop's currency (null until chosen and read). */
export const useShopCurrency = (): string | null => useShopStore((state) => state.currency);

/** The formatter of money in the shop's currency, for a component's figures. */
export const useMoneyFormat = (options?: MoneyOptions): Intl.NumberFormat => moneyFormat(useShopCurrency(), options);
