package queue

// itemHeap orders waiting items by the end of their cooldown, then by age,
// so work is done in the order it became due.
type itemHeap []*Item

func (h itemHeap) Len() int { return len(h) }

func (h itemHeap) Less(i, j int) bool {
	if !h[i].ReadyAt.Equal(h[j].ReadyAt) {
		return h[i].ReadyAt.Before(h[j].ReadyAt)
	}
	return h[i].EnqueuedAt.Before(h[j].EnqueuedAt)
}

func (h itemHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heapIndex = i
	h[j].heapIndex = j
}

func (h *itemHeap) Push(x any) {
	it := x.(*Item)
	it.heapIndex = len(*h)
	*h = append(*h, it)
}

func (h *itemHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	old[len(old)-1] = nil
	it.heapIndex = -1
	*h = old[:len(old)-1]
	return it
}
