package catalog

import (
	"regexp"
	"strconv"
	"strings"
)

// The fields of a published result: the round, benchmark and scenario it
// belongs to, and the system it ran on with that system's accelerators.

// modelIDSyntax is the shape of a canonical GPU model id (data/gpus.csv):
// lower-case words joined by hyphens, "nvidia-h100-sxm-80gb".
var modelIDSyntax = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// maxAccelerators bounds accelerator_count: the largest MLPerf systems have a
// few ten thousand GPUs; a number far beyond is a typo.
const maxAccelerators = 1_000_000

// checkSystem reads the system fields of a record into run and checks them
// against the instance type the run names (inst, when haveInst) or, for a
// result on another system, against the GPU models of the catalog (when
// withCatalog). For a run on an instance type, the accelerator model and count
// are the instance's when the record does not give them.
func checkSystem(run *BenchmarkRun, fields map[string]string, inst InstanceType, haveInst bool, ix benchmarkIndex, withCatalog bool,
	errAt, warnAt func(field, format string, args ...any)) {
	if s := fields["accelerator_count"]; s != "" {
		n, err := strconv.Atoi(s)
		switch {
		case err != nil || len(s) > 9:
			errAt("accelerator_count", "accelerator_count %q is not a whole number", s)
		case n < 1:
			errAt("accelerator_count", "accelerator_count %d must be at least 1", n)
		case n > maxAccelerators:
			errAt("accelerator_count", "accelerator_count %d is more than %d", n, maxAccelerators)
		case haveInst && n != inst.DeviceCount():
			errAt("accelerator_count", "accelerator_count %d is not the %d GPUs of %s", n, inst.DeviceCount(), inst.ID)
		default:
			run.AcceleratorCount = n
		}
	}
	if m := fields["accelerator_model"]; m != "" {
		primary, hasPrimary := inst.PrimaryAccelerator()
		switch {
		case !modelIDSyntax.MatchString(m):
			errAt("accelerator_model", "accelerator_model %q is not a GPU model id (lower-case, as in data/gpus.csv: nvidia-h100-sxm-80gb)", m)
		case haveInst && hasPrimary && primary.Model != m:
			errAt("accelerator_model", "accelerator_model %s is not the %s of %s", m, primary.Model, inst.ID)
		default:
			run.AcceleratorModel = m
			if !haveInst && withCatalog && !ix.models[m] {
				warnAt("accelerator_model", "no instance type in the catalog has GPU model %s: the result is listed but gives no cost per unit of work", m)
			}
		}
	}
	if haveInst {
		if a, ok := inst.PrimaryAccelerator(); ok && run.AcceleratorModel == "" {
			run.AcceleratorModel = a.Model
		}
		if run.AcceleratorCount == 0 {
			run.AcceleratorCount = inst.DeviceCount()
		}
	}
	if s := fields["vendor_tuned"]; s != "" {
		switch strings.ToLower(s) {
		case "true":
			run.VendorTuned = true
		case "false":
		default:
			errAt("vendor_tuned", "vendor_tuned %q is not true or false", s)
		}
	}
}
