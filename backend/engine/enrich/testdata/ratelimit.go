// Copyright 2024 The Tidewater Authors.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.

//go:build !wasm

// Package ratelimit throttles requests to the tide prediction service with
// a token bucket. Each station lookup takes one token; tokens refill at a
// steady rate, so bursts are allowed but the long-run request rate stays
// under the service's limit. The bucket is safe for concurrent use.
package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Bucket is a token bucket rate limiter.
type Bucket struct {
	mu       sync.Mutex
	capacity float64
	tokens   float64
	rate     float64 // tokens per second
	last     time.Time
}

// NewBucket returns a full bucket holding capacity tokens that refills at
// rate tokens per second.
func NewBucket(capacity int, rate float64) *Bucket {
	return &Bucket{capacity: float64(capacity), tokens: float64(capacity), rate: rate, last: time.Now()}
}

// refill adds the tokens earned since the last call.
func (b *Bucket) refill(now time.Time) {
	elapsed := now.Sub(b.last).Seconds()
	b.tokens = min(b.capacity, b.tokens+elapsed*b.rate)
	b.last = now
}

// TryTake takes one token if one is available.
func (b *Bucket) TryTake() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill(time.Now())
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Wait blocks until a token is available or ctx is done.
func (b *Bucket) Wait(ctx context.Context) error {
	for {
		if b.TryTake() {
			return nil
		}
		b.mu.Lock()
		missing := 1 - b.tokens
		b.mu.Unlock()
		delay := time.Duration(missing / b.rate * float64(time.Second))
		timer := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
	}
}
