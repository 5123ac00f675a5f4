// Package providers defines what a cloud adapter is, and runs crawls over them:
// fan-out per region with a bound, rate limits, retries and partial failure.
//
// Every adapter (providers/<cloud>) has the same skeleton:
//
//	<cloud>.go    Factory (services, credential variables, rate limits), the
//	              Adapter type, New (reads Config), ID, Regions and Crawl
//	sdk.go        the unexported interface of the SDK calls it makes
//	convert.go    SDK records to catalog instance types and placements
//	pricing.go    price calls to catalog offers (spot.go, projects.go,
//	              families.go where a cloud has more to say)
//	errors.go     classify: the vendor's codes and statuses to ErrThrottled,
//	              ErrAuth, ErrNotFound and ErrUnavailable; authHint; callErrors
//	transport.go  where the SDK needs it, answers vetted before the SDK reads
//	              them
//
// and its tests: <cloud>_test.go declares one providertest.Harness that the
// crawl tests, faults_test.go (the faulttest suite) and fuzz_test.go use.
//
// What is the same for every cloud lives here, once: Config's methods read
// credentials, settings and endpoints; CallErrors wraps every failed call in a
// CallError that names provider, action and region, keeps the class for
// errors.Is and retries (Retry: throttling with its own patience, counted
// in Stats) and has every credential form redacted (Redact); Gather turns a
// region's price calls into offers and Shortfalls, which the runner sweeps at
// the end of the provider's crawl; NoCurrency is the one answer to a price without a currency;
// Paginate and PageTokens end a listing whose token repeats; JSONObjectAnswer
// and ReadAnswer vet answers; Vendor names a processor's or accelerator's
// maker. The differences between clouds are data (Factory) or one small hook
// (classify).
//
// Where each part lives:
//
//   - provider.go: Provider, RegionData, Factory and APILimit, what an adapter
//     is; config.go: Config, the credentials, settings and endpoints of a
//     crawl (KeyOrRole and ReadTokenFile: a key pair or an OIDC role); endpoint.go: HostEndpoint, an endpoint flag's host and scheme.
//   - runner.go: Prepare, Target, Options and Crawl, the fan-out over regions
//     and the end-of-crawl sweep; sanity.go: SaneInstanceType, an adapter's
//     instance type checked before it is kept; shortfall.go: Gather and
//     Shortfall, a region's price calls and the types left without a price.
//   - retry.go: Retry with backoff and jitter, CallContext and Sleep;
//     transport.go: Transport, the counting, rate-limited HTTP transport, and
//     APILimiters; stats.go: Stats, the crawl's counters; pagination.go:
//     Paginate and PageTokens; listing.go: Listing, a whole-cloud listing
//     by region read once per crawl.
//   - callerror.go: CallError, CallErrors and the error classes (StatusClass:
//     an HTTP status's; TokenRefusal: a token service's), and NoCurrency; redact.go: Redact, every credential form of the five clouds;
//     answer.go: ReadAnswer and JSONObjectAnswer, answers vetted before an SDK
//     reads them; vendor.go: Vendor, a processor's or accelerator's maker.
//   - recover.go: a panic in one adapter becomes its provider's failed
//     coverage (Safely, ErrPanicked); sdklog.go: the SDKs' log lines through
//     the crawl's reporter, redacted, one line each.
package providers
