// The panels this app ships with. Each feature registers its own panel when its `panel` module is
// first imported (once per window); the order here is the order the desk lists them in.
import '../features/ladder/panel';
import '../features/chart/panel';
import '../features/ticket/panel';
import '../features/triggers/panel';
import '../features/tape/panel';
import '../features/positions/panel';
import '../features/orders/panel';
import '../features/balances/panel';
import '../features/margin/panel';
import '../features/funds/panel';
import '../features/journal/panel';
import '../features/alerts/panel';
import '../features/algos/panel';
import '../features/overview/panel';
import '../features/records/panel';
