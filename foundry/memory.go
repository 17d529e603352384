package foundry

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MemoryLimits are the container sizes the hosted Code Interpreter offers,
// smallest first: the memory_limit of an auto container (foundry-api.md §2,
// from the JS SDK's CodeInterpreterTool).
var MemoryLimits = []string{"1g", "4g", "16g", "64g"}

// DefaultMemoryLimit is the size the service gives a container whose tool
// names none.
const DefaultMemoryLimit = "1g"

// frameGrowth is how many times its size on disk the memory a file takes to
// analyse. pandas holds a CSV at 2 to 5 times its bytes (each string cell is
// a Python object of 50 bytes or more), and a groupby, merge or sort copies
// the frame once more; ten times leaves room for both without paying for the
// next size up on every small file.
const frameGrowth = 10

// MemoryLimitFor returns the smallest container size that holds
// frameGrowth times totalBytes, the size of the files a turn attaches: up to
// about 100 MB of files run in 1g, 400 MB in 4g, 1.6 GB in 16g, beyond that
// 64g, the largest there is.
func MemoryLimitFor(totalBytes int64) string {
	need := totalBytes * frameGrowth
	for _, limit := range MemoryLimits[:len(MemoryLimits)-1] {
		if need <= memoryLimitBytes(limit) {
			return limit
		}
	}
	return MemoryLimits[len(MemoryLimits)-1]
}

// memoryLimitBytes is the size one of MemoryLimits names, in bytes (1g is
// 2^30).
func memoryLimitBytes(limit string) int64 {
	gib, _ := strconv.ParseInt(strings.TrimSuffix(limit, "g"), 10, 64)
	return gib << 30
}

// checkMemoryLimit accepts "" (the service's default) and the sizes of
// MemoryLimits.
func checkMemoryLimit(limit string) error {
	if limit == "" || slices.Contains(MemoryLimits, limit) {
		return nil
	}
	return fmt.Errorf("foundry: memory limit %q is none of %v", limit, MemoryLimits)
}

// sameMemoryLimit compares two memory limits, "" standing for the default:
// the service may echo a definition with the default filled in.
func sameMemoryLimit(a, b string) bool {
	if a == "" {
		a = DefaultMemoryLimit
	}
	if b == "" {
		b = DefaultMemoryLimit
	}
	return a == b
}
