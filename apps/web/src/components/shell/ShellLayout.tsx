// The signed-in shell (spec §2): header with logo, product name, navigation, profile and logout,
// the page, and the assistant footer bar.
import { Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '@mantine/core';
import { AssistantBar, assistantReservedHeight } from '../assistant/AssistantBar.tsx';
import { useAssistantStore } from '../../stores/assistant.ts';
import { signOut } from '../../stores/sign-in.ts';
import { productName } from '../../product.ts';
import { PageLoader } from '../PageLoader.tsx';
import { startingPasswordRefusals } from '../../api/http.ts';
import { loginPath } from '../../routing/guard.ts';
import { useRole, useUserId } from '../../stores/role.ts';
import { useAccountStore } from '../../stores/account.ts';
import { followShopSettings, useShopStore } from '../../stores/shop.ts';
import { AwaitingApproval } from './AwaitingApproval.tsx';
import { ChoosePassword } from './ChoosePassword.tsx';
import { isBrowsersLoadedPage, useFocusPageHeading } from './page-focus.ts';
import classes from './Shell.module.css';

export const navItems = [
  { key: 'home', to: '/app/home' },
  { key: 'forecasting', to: '/app/forecasting' },
  { key: 'reports', to: '/app/reports' },
  { key: 'datatab', to: '/app/datatab' },
  { key: 'settings', to: '/app/settings' },
] as const;

/** The shell page a path belongs to: /app/reports -> 'reports', /profile -> 'profile'. */
export function shellPageOf(pathname: string): string {
  const match = /^\/app\/([^/]+)/.exec(pathname);
  if (match?.[1]) return match[1];
  return pathname.startsWith('/profile') ? 'profile' : 'home';
}

/**
 * The page scrolls under a sticky header and above a fixed assistant bar: the scroller's padding
 * (CSS variables read by Shell.module.css) keeps both clear, so the page's end scrolls above the bar
 * and a control reached with Tab or scrolled into view is never behind either (WCAG 2.4.11).
 */
function useRoomForFixedBars(header: RefObject<HTMLElement | null>, bottom: string) {
  useEffect(() => {
    const root = document.documentElement;
    root.style.setProperty('--shell-reserved-bottom', bottom);
    return () => {
      root.style.removeProperty('--shell-reserved-bottom');
    };
  }, [bottom]);
  useEffect(() => {
    const element = header.current;
    if (!element) return;
    const root = document.documentElement;
    // The header wraps onto more lines on a narrow screen.
    const observer = new ResizeObserver(() => root.style.setProperty('--shell-header-height', `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--shell-header-height');
    };
  }, [header]);
}

export default function ShellLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const page = shellPageOf(location.pathname);
  const enterPage = useAssistantStore((state) => state.enterPage);
  const expanded = useAssistantStore((state) => state.expanded);
  const headerRef = useRef<HTMLElement>(null);
  const mainRef = useRef<HTMLElement>(null);
  const [loadedPage] = useState(() => isBrowsersLoadedPage(location.pathname));
  useFocusPageHeading(mainRef, location.pathname, loadedPage);
  const role = useRole();
  const userId = useUserId();
  const { account, isLoading: accountLoading, startingPasswordOf, readFor, load: loadAccount } = useAccountStore();
  // The signed-in user (null until a token has arrived) whose account was last asked for: one try
  // each, so a failure (a session that had expired before this sign-in) is not asked again in a loop.
  const accountAskedFor = useRef<number | null | undefined>(undefined);
  const [accountFailedFor, setAccountFailedFor] = useState<number | null>(null);
  const ownAccount = account && account.id === userId ? account : null;
  // A page mounted before the account is read would send its calls as an account that may still have
  // to choose its password, and be refused (ADR 0151). An account that cannot be read leaves the page
  // to say what is wrong, rather than a loader that never ends.
  const accountKnown = userId !== null && (readFor === userId || accountFailedFor === userId);
  // A pending account, or one that must first replace a starting password, has no navigation and
  // no assistant; it sees its profile and, everywhere else, why there is nothing yet.
  const isPending = role === 'pending';
  const mustChangePassword = userId !== null && startingPasswordOf === userId;
  const restricted = isPending || mustChangePassword;

  useEffect(() => {
    enterPage(page);
  }, [enterPage, page]);
  const assistantShown = accountKnown && !restricted;
  // Money on every screen carries the shop's currency: read by an account that may read it, and kept
  // current while the tab is open (another tab's or another administrator's change).
  const loadShop = useShopStore((state) => state.load);
  useEffect(() => {
    if (!accountKnown || restricted) return;
    void loadShop();
    return followShopSettings(window);
  }, [accountKnown, restricted, loadShop]);
  useRoomForFixedBars(headerRef, assistantShown ? assistantReservedHeight(expanded) : '0rem');

  // After a reload the access token (and with it the role) is gone until the first call renews it;
  // after a sign-in the account says whether its password is a starting one.
  // An administrator reset the password while this tab was open: the account says so once read again.
  useEffect(() => {
    const readAgain = () => void loadAccount();
    startingPasswordRefusals.addEventListener('refused', readAgain);
    return () => startingPasswordRefusals.removeEventListener('refused', readAgain);
  }, [loadAccount]);

  useEffect(() => {
    if (accountLoading || ownAccount || accountAskedFor.current === userId) return;
    const askedFor = userId;
    accountAskedFor.current = askedFor;
    void loadAccount().then(() => {
      if (useAccountStore.getState().error !== null) setAccountFailedFor(askedFor);
    });
  }, [userId, ownAccount, accountLoading, loadAccount]);

  const logout = async () => {
    await signOut();
    void navigate(loginPath, { replace: true });
  };

  const pageContent = () => {
    if (!accountKnown) return <PageLoader />;
    if (!restricted || page === 'profile') return <Outlet />;
    return mustChangePassword ? <ChoosePassword /> : <AwaitingApproval />;
  };

  return (
    <>
      <header ref={headerRef} className={classes.header}>
        <Link to="/app/home" className={classes.brand}>
          <img src="/logo.svg" alt={t('app.logoAlt')} />
          <span data-testid="product-name">{productName}</span>
        </Link>
        <nav className={classes.nav} aria-label={t('nav.label')}>
          {!restricted && navItems.map((item) => (
            <NavLink key={item.key} to={item.to} className={classes.link}>
              {t(`nav.${item.key}`)}
            </NavLink>
          ))}
        </nav>
        <div className={classes.account}>
          <NavLink to="/profile" className={classes.link}>
            {t('nav.profile')}
          </NavLink>
          <Button variant="default" size="sm" onClick={() => void logout()}>
            {t('nav.logout')}
          </Button>
        </div>
      </header>
      <main ref={mainRef} className={classes.main}>
        <Suspense fallback={<PageLoader />}>{pageContent()}</Suspense>
      </main>
      {assistantShown && <AssistantBar />}
    </>
  );
}
