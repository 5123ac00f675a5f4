package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// run is one run of a command: its wall time and peak memory.
type run struct {
	wall   time.Duration
	maxRSS int64 // bytes
	stderr string
}

// execute runs the command and measures it. okCodes are the exit statuses that
// count as success (gpuatlas diff exits 1 when the snapshots differ, like diff(1)).
func execute(name string, args []string, okCodes ...int) (run, error) {
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = nil // discarded: the figure is the time to produce it
	start := time.Now()
	err := cmd.Run()
	r := run{wall: time.Since(start), stderr: stderr.String()}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.maxRSS = ru.Maxrss * 1024 // kilobytes on Linux
		}
	}
	if err != nil {
		code := -1
		if cmd.ProcessState != nil {
			code = cmd.ProcessState.ExitCode()
		}
		if !slices.Contains(okCodes, code) {
			return r, fmt.Errorf("%s %v: %w\n%s", filepath.Base(name), args, err, stderr.String())
		}
	}
	return r, nil
}

// repeat runs f n times and returns the runs sorted by wall time.
func repeat(n int, f func() (run, error)) ([]run, error) {
	var runs []run
	for range n {
		r, err := f()
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	slices.SortFunc(runs, func(a, b run) int { return int(a.wall - b.wall) })
	return runs, nil
}

// median is the middle run (runs sorted by wall time).
func median(runs []run) run { return runs[len(runs)/2] }

// peakRSS is the largest peak memory of the runs.
func peakRSS(runs []run) int64 {
	var m int64
	for _, r := range runs {
		m = max(m, r.maxRSS)
	}
	return m
}

// timeIt runs f n times and returns the median wall time.
func timeIt(n int, f func() error) (time.Duration, error) {
	runs, err := repeat(n, func() (run, error) {
		start := time.Now()
		err := f()
		return run{wall: time.Since(start)}, err
	})
	if err != nil {
		return 0, err
	}
	return median(runs).wall, nil
}

// treeSize is the number of files and bytes under dir.
func treeSize(dir string) (files int, bytes int64, err error) {
	err = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		bytes += info.Size()
		return nil
	})
	return files, bytes, err
}

func fileSize(path string) (int64, error) {
	info, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}

func seconds(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func mbps(n int64, d time.Duration) string {
	return fmt.Sprintf("%.0f MB/s", float64(n)/1e6/d.Seconds())
}
