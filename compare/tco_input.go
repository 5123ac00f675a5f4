package compare

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuatlas/gpuatlas/catalog"
)

// Work units of a TCO built from a catalog: hours on one GPU of a reference model
// ("gpu_hour:nvidia-v100-sxm2-32gb") or on a base instance type
// ("hour:aws/p3.8xlarge"). A hand-made input may name any unit ("tokens").
const (
	WorkUnitGPUHour = "gpu_hour:"
	WorkUnitHour    = "hour:"
)

// TCORequest says which catalog offers a TCO compares and how the workload is
// measured. NewTCOInput turns it into a self-contained TCOInput.
type TCORequest struct {
	// Instances are provider/type keys; the first is the base when
	// ReferenceGPU is empty (the job size is then in hours on it).
	Instances []string
	Region    string
	// Billing lists the billing plans per instance: a billing kind
	// ("on_demand", "reserved_1y_all_upfront") or a commitment with a
	// pay-as-you-go burst ("reserved_1y_all_upfront+spot"). Empty: every
	// billing kind the first instance has in the region.
	Billing []string
	// CommittedInstances fixes the commitment's instance count (0: worked out).
	CommittedInstances int
	// SpotOverhead, when positive, is a flat interruption overhead of spot
	// (0.1 = 10 %) in place of the interruption model (tco_spot.go).
	SpotOverhead decimal.Decimal
	// CheckpointMinutes and RestartMinutes are the model's inputs (zero: the
	// defaults); SpotRate is the interruptions a month for spot offers with no
	// published band (nil: none given).
	CheckpointMinutes, RestartMinutes decimal.Decimal
	SpotRate                          *decimal.Decimal
	// KeepUnratedSpot keeps a spot option that has neither a band nor a rate,
	// for a calculator that asks for the rate; otherwise it is left out with a
	// note (billing not given) or refused (billing given).
	KeepUnratedSpot bool
	// ReferenceGPU, when set, measures the job in GPU-hours on one such GPU.
	ReferenceGPU string
	// Figures are the spec figures for speeds (a scenario's Compute); BF16 then
	// FP16 when empty.
	Figures []Figure
	// BenchmarkWorkload and Costs give measured relative speeds where both the
	// instance and the base have a figure (hours on a base instance only).
	BenchmarkWorkload string
	Costs             []WorkCost
	// Workload is copied into the input; WorkUnit is filled in when empty.
	Workload TCOWorkload
	Storage  *TCOStorage
	Egress   *TCOEgress
}

// NewTCOInput resolves a request against a snapshot: offers and their USD rates
// (through the snapshot's FX table), speeds from benchmarks or specs. Errors say
// which instance, region or billing kind is missing.
func NewTCOInput(snap *catalog.Snapshot, gpus *catalog.GPUReference, req TCORequest) (TCOInput, error) {
	if len(req.Instances) == 0 {
		return TCOInput{}, errors.New("no instance type given")
	}
	types := map[string]catalog.InstanceType{}
	for _, t := range snap.Instances {
		types[t.Key()] = t
	}
	figs := req.Figures
	if len(figs) == 0 {
		figs = []Figure{FigureBF16, FigureFP16}
	}
	in := TCOInput{Schema: TCOSchema, Workload: req.Workload, Storage: req.Storage, Egress: req.Egress,
		Source: &TCOSource{CatalogTakenAt: snap.TakenAt.UTC().Format("2006-01-02T15:04:05Z"), FXBase: snap.FX.Base, FXDate: snap.FX.Date, FXSource: snap.FX.Source}}

	var base catalog.InstanceType
	if req.ReferenceGPU != "" {
		ref, err := ReferenceInstance(gpus, req.ReferenceGPU)
		if err != nil {
			return TCOInput{}, err
		}
		base = ref
		if in.Workload.WorkUnit == "" {
			in.Workload.WorkUnit = WorkUnitGPUHour + req.ReferenceGPU
		}
	} else {
		t, ok := types[req.Instances[0]]
		if !ok {
			return TCOInput{}, fmt.Errorf("instance type %s is not in the catalog", req.Instances[0])
		}
		base = t
		if in.Workload.WorkUnit == "" {
			in.Workload.WorkUnit = WorkUnitHour + t.Key()
		}
	}

	billing := req.Billing
	for _, plan := range billing {
		if err := CheckBillingPlan(plan); err != nil {
			return TCOInput{}, err
		}
	}
	defaulted := len(billing) == 0
	if defaulted {
		have := map[catalog.BillingKind]bool{}
		for _, o := range snap.Offers {
			if o.InstanceKey() == req.Instances[0] && o.Region == req.Region && o.Plausible() {
				have[o.Billing] = true
			}
		}
		for _, b := range catalog.BillingKinds {
			if have[b] {
				billing = append(billing, string(b))
			}
		}
		if len(billing) == 0 {
			return TCOInput{}, fmt.Errorf("%s has no offers in region %s", req.Instances[0], req.Region)
		}
	}

	for _, key := range req.Instances {
		t, ok := types[key]
		if !ok {
			return TCOInput{}, fmt.Errorf("instance type %s is not in the catalog", key)
		}
		speed, err := tcoSpeed(gpus, req, t, base, figs)
		if err != nil {
			return TCOInput{}, err
		}
		hw := specsOf(gpus, t)
		hardware := fmtUnits(hw) + " " + hw.gpuFigure().Text
		for _, plan := range billing {
			o := TCOOption{ID: key + "/" + req.Region + "/" + plan, Instance: key, Hardware: hardware, Speed: speed}
			commit, burst, isMix := strings.Cut(plan, "+")
			if !isMix {
				burst = ""
			}
			kinds := []string{commit}
			if isMix {
				kinds = append(kinds, burst)
			}
			for _, k := range kinds {
				bk, err := catalog.ParseBillingKind(k)
				if err != nil { // a default plan is a kind of the catalog's
					return TCOInput{}, fmt.Errorf("billing %s: %w", catalog.Excerpt(plan), err)
				}
				off, ok, suspect := pickOffer(snap, key, req.Region, bk)
				if !ok && defaulted {
					// The plans were the first type's; another type may lack one.
					in.Notes = append(in.Notes, reason(ReasonTCOLeftOut, text("instance", key), codeList("billing", GroupBilling, string(bk)), text("region", req.Region)))
					if suspect != "" {
						in.Notes = append(in.Notes, reason(ReasonTCOSuspectLeftOut, text("instance", key), codeList("billing", GroupBilling, string(bk)), text("region", req.Region), text("suspect", suspect)))
					}
					o = TCOOption{}
					break
				}
				if !ok {
					return TCOInput{}, fmt.Errorf("%s has no %s offer in region %s%s", key, bk, req.Region, suspectNote(suspect))
				}
				if bk.TermHours().IsZero() {
					p, err := paygPart(snap.FX, off)
					if err != nil {
						return TCOInput{}, err
					}
					if bk == catalog.Spot {
						if req.SpotOverhead.IsPositive() {
							p.InterruptionOverhead = req.SpotOverhead
						} else {
							p.Risk = SpotRiskOf(off, req.SpotRate, orDefault(req.CheckpointMinutes, DefaultCheckpointMinutes), orDefault(req.RestartMinutes, DefaultRestartMinutes))
						}
						if p.Risk != nil && p.Risk.InterruptionsPerMonth == nil && !req.KeepUnratedSpot {
							status := catalog.InterruptionStatus(&off)
							if !defaulted {
								return TCOInput{}, fmt.Errorf("%s spot in %s: %s; give the interruptions a month to assume (--interruptions-per-month)", key, req.Region, spotStatusWords(status))
							}
							in.Notes = append(in.Notes, reason(ReasonTCOSpotNeedsRate, text("instance", key), text("region", req.Region), codeList("status", GroupInterruption, status)))
							o = TCOOption{}
							break
						}
					}
					o.PayAsYouGo = &p
					continue
				}
				c, err := commitmentPart(snap.FX, off)
				if err != nil {
					return TCOInput{}, err
				}
				c.Instances = req.CommittedInstances
				o.Commitment = &c
			}
			if o.ID == "" {
				continue
			}
			o.Label = optionLabel(hardware, key, plan)
			in.Options = append(in.Options, o)
		}
	}
	return in, nil
}

// CheckBillingPlan checks a billing plan of a TCO request: a billing kind
// ("on_demand", "reserved_1y_all_upfront"), or a commitment (reserved or
// subscription) with an on_demand or spot burst after a +
// ("reserved_1y_all_upfront+spot"). The error names the plan (an excerpt).
func CheckBillingPlan(plan string) error {
	kind := func(s string) (catalog.BillingKind, error) {
		k, err := catalog.ParseBillingKind(s)
		if err != nil { // its own error repeats the whole value
			var names []string
			for _, b := range catalog.BillingKinds {
				names = append(names, string(b))
			}
			return k, fmt.Errorf("billing %s: unknown billing kind %s: want one of %s", catalog.Excerpt(plan), catalog.Excerpt(s), strings.Join(names, ", "))
		}
		return k, nil
	}
	commit, burst, isMix := strings.Cut(plan, "+")
	ck, err := kind(commit)
	if err != nil {
		return err
	}
	if !isMix {
		return nil
	}
	if ck.TermHours().IsZero() {
		return fmt.Errorf("billing %s: the part before + must be a commitment (reserved or subscription)", catalog.Excerpt(plan))
	}
	bk, err := kind(burst)
	if err != nil {
		return err
	}
	if !bk.TermHours().IsZero() {
		return fmt.Errorf("billing %s: the part after + must be on_demand or spot", catalog.Excerpt(plan))
	}
	return nil
}

// orDefault is d, or def when d is zero.
func orDefault(d, def decimal.Decimal) decimal.Decimal {
	if d.IsZero() {
		return def
	}
	return d
}

// spotStatusWords says why a spot offer has no band, for an error.
func spotStatusWords(status string) string {
	if status == catalog.InterruptionNoData {
		return "the Spot Instance Advisor has no interruption data for it"
	}
	return "the provider publishes no interruption rate"
}

// optionLabel names an option by its hardware, instance type and billing plan
// codes: "8x NVIDIA A100 SXM4 40GB (aws/p4d.24xlarge), reserved_1y_all_upfront + spot".
// Names and codes only; the renderers label options in words of their own.
func optionLabel(hardware, key, plan string) string {
	return hardware + " (" + key + "), " + strings.ReplaceAll(plan, "+", " + ")
}

func fmtUnits(sp specs) string {
	if sp.partial {
		return sp.units.String() + "x"
	}
	return fmt.Sprintf("%dx", sp.devices)
}

func tcoSpeed(gpus *catalog.GPUReference, req TCORequest, t, base catalog.InstanceType, figs []Figure) (Speed, error) {
	if base.Key() == t.Key() {
		return Speed{WorkPerHour: one, Basis: Reference, From: "reference", Reason: reason(ReasonSpeedReference)}, nil
	}
	if req.BenchmarkWorkload != "" && req.ReferenceGPU == "" {
		if s, ok := RelativeMeasuredSpeed(req.Costs, req.BenchmarkWorkload, t.Key(), base.Key()); ok {
			return s, nil
		}
	}
	return SpecSpeed(gpus, t, base, figs)
}

// pickOffer is the plausible offer of a type, region and billing kind: the
// regional one (no zone) when there is one, else the cheapest zone's, then by
// key. A suspect offer is never picked; suspect is the reason of the first one
// passed over, for the message when no other is left.
func pickOffer(snap *catalog.Snapshot, key, region string, b catalog.BillingKind) (best catalog.Offer, found bool, suspect string) {
	for _, o := range snap.Offers {
		if o.InstanceKey() != key || o.Region != region || o.Billing != b {
			continue
		}
		if !o.Plausible() {
			if suspect == "" {
				suspect = o.Suspect
			}
			continue
		}
		if !found {
			best, found = o, true
			continue
		}
		switch {
		case (o.Zone == "") != (best.Zone == ""):
			if o.Zone == "" {
				best = o
			}
		case o.Price.Amount.LessThan(best.Price.Amount) ||
			(o.Price.Amount.Equal(best.Price.Amount) && o.Key() < best.Key()):
			best = o
		}
	}
	return best, found, suspect
}

// suspectNote says why an offer that exists was not used.
func suspectNote(suspect string) string {
	if suspect == "" {
		return ""
	}
	return " that passes the plausibility check (suspect: " + suspect + ")"
}

func paygPart(fx catalog.FXTable, o catalog.Offer) (TCOPayAsYouGo, error) {
	usd, err := usdPerHour(fx, o)
	if err != nil {
		return TCOPayAsYouGo{}, err
	}
	return TCOPayAsYouGo{Billing: o.Billing, Offer: o.Key(), USDPerHour: usd, Native: nativeOf(fx, o)}, nil
}

// commitmentPart turns a reserved or subscription offer into a recurring monthly
// charge and an upfront payment per term, in USD:
//   - an hourly rate is charged for every hour of the month: × 730;
//   - a monthly amount is the monthly charge;
//   - a yearly amount (subscription_year) is paid in advance for the year: upfront;
//   - an upfront amount (Price.Upfront, or unit upfront) is paid at the term start.
func commitmentPart(fx catalog.FXTable, o catalog.Offer) (TCOCommitment, error) {
	term := o.Billing.TermHours().Div(monthHours)
	if !term.IsInteger() || !term.IsPositive() {
		return TCOCommitment{}, fmt.Errorf("offer %s: %s is not a whole number of months", o.Key(), o.Billing)
	}
	c := TCOCommitment{Billing: o.Billing, Offer: o.Key(), TermMonths: int(term.IntPart()), Native: nativeOf(fx, o)}
	monthly, upfront := decimal.Zero, decimal.Zero
	switch o.Price.Unit {
	case catalog.PerHour:
		monthly = o.Price.Amount.Mul(monthHours)
	case catalog.PerMonth:
		monthly = o.Price.Amount
	case catalog.PerYear:
		if c.TermMonths != 12 {
			return TCOCommitment{}, fmt.Errorf("offer %s: a yearly price on a %d-month term is not supported", o.Key(), c.TermMonths)
		}
		upfront = o.Price.Amount
	case catalog.Upfront:
		upfront = o.Price.Amount
	default:
		return TCOCommitment{}, fmt.Errorf("offer %s: price unit %q is not one of hour, month, year, upfront", o.Key(), o.Price.Unit)
	}
	if o.Price.Upfront != nil {
		upfront = upfront.Add(*o.Price.Upfront)
	}
	var err error
	if c.USDPerMonth, err = fx.Convert(monthly, o.Price.Currency, catalog.USD); err != nil {
		return TCOCommitment{}, fmt.Errorf("offer %s: %w", o.Key(), err)
	}
	if c.UpfrontUSD, err = fx.Convert(upfront, o.Price.Currency, catalog.USD); err != nil {
		return TCOCommitment{}, fmt.Errorf("offer %s: %w", o.Key(), err)
	}
	return c, nil
}

// nativeOf is an offer's price as published with the FX rate that converts it.
func nativeOf(fx catalog.FXTable, o catalog.Offer) *TCONative {
	n := &TCONative{Price: o.Price}
	if o.Price.Currency != catalog.USD {
		if r, err := fx.CrossRate(o.Price.Currency, catalog.USD); err == nil {
			n.USDRate = &r
		}
	}
	return n
}
